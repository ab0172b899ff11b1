import { Alert, Box, Button, CircularProgress, Container, Paper, Stack, Typography } from '@mui/material';
import { useMutation, useQuery } from '@tanstack/react-query';
import { formatDate } from '@trasa/domain';
import { useSearchParams } from 'react-router';
import { messageOf } from '../../api/errors';
import { confirmPublicStocktaking, readPublicStocktaking } from '../../api/inventory';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { INVENTORY } from '../../messages';
import { ScriptSwitch } from '../../shell/ScriptSwitch';
import { UI } from '../../texts';
import { formatDinars } from './format';
import { INV_LABELS } from './labels';
import { StocktakingPart } from './StocktakingPart';

/**
 * The school's page from the mailed link, /popisna-lista?token=… (docs/api/inventory.md): the list as
 * mailed and a confirm button, nothing else of the application (no sign-in, no menu). A forged, expired
 * or used link shows the server's text. The script switch keeps the choice in this browser only.
 */
export function StocktakingConfirmPage() {
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  useDocumentTitle(INVENTORY.publicTitle);
  const list = useQuery({
    queryKey: ['public-stocktaking', token],
    queryFn: ({ signal }) => readPublicStocktaking(token, signal),
    enabled: token !== '',
    retry: false,
  });
  const confirm = useMutation({ mutationFn: () => confirmPublicStocktaking(token) });
  const data = list.data;
  const confirmed = confirm.isSuccess || !!data?.potvrdaSkole;

  return (
    <Container maxWidth="lg" sx={{ py: { xs: 2, sm: 4 } }}>
      <Paper sx={{ p: { xs: 2, sm: 4 } }}>
        <Stack spacing={2}>
          {/* The school reads the page in the script this browser keeps: Ћирилица (default) or Latinica. */}
          <Box sx={{ alignSelf: 'flex-end', textAlign: 'right' }}>
            <ScriptSwitch local />
          </Box>
          <Typography variant="h1">{data ? `${INVENTORY.publicTitle} — ${data.lokacija}` : INVENTORY.publicTitle}</Typography>
          {!token ? (
            <Alert severity="error">{INVENTORY.publicLinkInvalid}</Alert>
          ) : list.isPending ? (
            <Box sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
              <CircularProgress aria-label={UI.loading} />
            </Box>
          ) : list.isError || !data ? (
            <Alert severity="error">{messageOf(list.error, INVENTORY.publicLinkInvalid)}</Alert>
          ) : (
            <>
              <Typography color="text.secondary">
                {`${INV_LABELS.publicSent}: ${formatDate(data.datumSlanja)} · ${INV_LABELS.publicValid}: ${formatDate(data.istice)}`}
              </Typography>
              <StocktakingPart label={INV_LABELS.publicParts.materijali} rows={data.materijali} latin />
              <StocktakingPart label={INV_LABELS.publicParts.oprema} rows={data.oprema} latin />
              <StocktakingPart label={INV_LABELS.publicParts.radovi} rows={data.radovi} latin />
              <Typography sx={{ fontWeight: 500 }}>{`${INV_LABELS.publicTotal}: ${formatDinars(data.ukupnoRsd)}`}</Typography>
              {data.planiranoRsd > 0 && <Typography>{`${INV_LABELS.plannedTotal}: ${formatDinars(data.planiranoRsd)}`}</Typography>}
              {confirm.isError && <Alert severity="error">{messageOf(confirm.error, INVENTORY.publicLinkInvalid)}</Alert>}
              {confirmed ? (
                <Alert severity="success" role="status">
                  {confirm.isSuccess
                    ? confirm.data?.message || INVENTORY.publicConfirmed
                    : `${INVENTORY.publicAlreadyConfirmed}${data.mailPotvrdjen ? ` (${formatDate(data.mailPotvrdjen)})` : ''}`}
                </Alert>
              ) : (
                <Box>
                  <Button variant="contained" size="large" disabled={confirm.isPending} onClick={() => confirm.mutate()}>
                    {INVENTORY.publicConfirm}
                  </Button>
                </Box>
              )}
            </>
          )}
        </Stack>
      </Paper>
    </Container>
  );
}

import { Box } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type SettlementInput, settlementSchema } from '@trasa/domain';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { fieldErrorOf, messageOf } from '../../api/errors';
import { createSettlement, editSettlement, type SettlementBody, type SettlementDto } from '../../api/settlements';
import { FormDialog } from '../../components/FormDialog';
import { FormTextField } from '../../components/FormTextField';
import { useSnackbar } from '../../components/SnackbarProvider';
import { zodResolver } from '../../components/validation';
import { CODEBOOKS } from '../../messages';
import { SETTLEMENTS_KEY } from '../../queries/settlements';
import { UI } from '../../texts';
import { CODEBOOK_NOTICE_MS } from '../types/GroupTypeDialog';

const COUNT_FIELDS = [
  'brojDomacinstava',
  'brojSkola',
  'brojIndirektnoPokrivenihDomacinstava',
  'brojIndirektnoPokrivenihSkola',
] as const satisfies readonly (keyof SettlementDto)[];

const TEXT_FIELDS = ['id', 'naziv', 'maticniBroj', 'opstina', 'operator', 'javniPoziv'] as const;

function count(value: number | null | undefined): string {
  return value === null || value === undefined ? '' : String(value);
}

/** The form holds text: counts as typed, municipalities comma-separated (spec 2 §5). */
function valuesOf(s: SettlementDto | null): SettlementInput {
  return {
    id: s?.id ?? '',
    naziv: s?.naziv ?? '',
    maticniBroj: s?.maticniBroj ?? '',
    opstina: (s?.opstina ?? []).join(', '),
    operator: s?.operator ?? '',
    javniPoziv: s?.javniPoziv ?? '',
    brojDomacinstava: count(s?.brojDomacinstava),
    brojSkola: count(s?.brojSkola),
    brojIndirektnoPokrivenihDomacinstava: count(s?.brojIndirektnoPokrivenihDomacinstava),
    brojIndirektnoPokrivenihSkola: count(s?.brojIndirektnoPokrivenihSkola),
  };
}

type Props = { open: boolean; settlement: SettlementDto | null; onClose: () => void };

/** Create or edit a settlement: id and naziv required, counts numbers ≥ 0 when given. */
export function SettlementDialog({ open, settlement, onClose }: Props) {
  const snackbar = useSnackbar();
  const queryClient = useQueryClient();
  const { control, handleSubmit, setError, reset } = useForm<SettlementInput, unknown, SettlementBody>({
    resolver: zodResolver(settlementSchema),
    defaultValues: valuesOf(settlement),
  });

  useEffect(() => {
    if (open) reset(valuesOf(settlement));
  }, [open, settlement, reset]);

  const mutation = useMutation({
    mutationFn: (body: SettlementBody) => (settlement ? editSettlement(settlement._id, body) : createSettlement(body)),
    onSuccess: async (data) => {
      snackbar.success(data?.message || UI.saved, CODEBOOK_NOTICE_MS);
      onClose();
      await queryClient.invalidateQueries({ queryKey: SETTLEMENTS_KEY });
    },
    onError: (error) => {
      // 'Дупликат за: …' and every other refusal come from the server.
      snackbar.error(messageOf(error, CODEBOOKS.failed), CODEBOOK_NOTICE_MS);
      for (const field of [...TEXT_FIELDS, ...COUNT_FIELDS]) {
        const text = fieldErrorOf(error, field);
        if (text) setError(field, { message: text });
      }
    },
  });

  const grid = { display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } } as const;
  return (
    <FormDialog
      open={open}
      title={settlement ? UI.editSettlementTitle : UI.newSettlementTitle}
      onClose={onClose}
      onSubmit={handleSubmit((v) => mutation.mutate(v))}
      busy={mutation.isPending}
    >
      <Box sx={{ ...grid, gridTemplateColumns: { xs: '1fr', sm: '1fr 2fr' } }}>
        <FormTextField control={control} name="id" label={UI.settlementId} autoComplete="off" required />
        <FormTextField control={control} name="naziv" label={UI.naziv} autoComplete="off" required />
      </Box>
      <Box sx={grid}>
        <FormTextField control={control} name="maticniBroj" label={UI.maticniBroj} autoComplete="off" />
        <FormTextField control={control} name="opstina" label={UI.opstina} helperText={UI.opstinaHelp} autoComplete="off" />
        <FormTextField control={control} name="operator" label={UI.operator} autoComplete="off" />
        <FormTextField control={control} name="javniPoziv" label={UI.javniPoziv} autoComplete="off" />
      </Box>
      <Box sx={grid}>
        {COUNT_FIELDS.map((field) => (
          <FormTextField
            key={field}
            control={control}
            name={field}
            label={UI[field]}
            autoComplete="off"
            slotProps={{ htmlInput: { inputMode: 'numeric' } }}
          />
        ))}
      </Box>
    </FormDialog>
  );
}

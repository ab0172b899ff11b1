import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import LinkIcon from '@mui/icons-material/Link';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { appPath, COLOUR_HEX, CONTRACT_GROUP_TYPE, type ContractKind, formatDate } from '@trasa/domain';
import type { ReactNode } from 'react';
import { Link as RouterLink, useLocation, useNavigate, useParams } from 'react-router';
import type { ContractDto } from '../../api/contracts';
import { messageOf } from '../../api/errors';
import { COLOUR_MEANINGS, deadlineRowColor } from '../../components/ColourLegend';
import { DetailRows } from '../../components/DetailRows';
import { COMMON } from '../../messages';
import { SCREEN_TITLES } from '../../shell/screenTitles';
import { UI } from '../../texts';
import { clusterDetailPath, FROM_CLUSTER_LIST } from '../clusters/clusterLinks';
import { CONTRACT_KIND_LABELS, statusLabel } from '../clusters/format';
import { DocumentList, LIST_NAME_MAX } from './documents';
import { isFinished, kindOfDetailState, LINK_FROM, LIST_ROUTE, linkPath } from './kinds';
import { CONTRACT_LABELS } from './labels';
import { useContractQuery } from './queries';

/** The contract's deadline colour: a swatch and its legend text (spec 2 §4). */
function Colour({ contract }: { contract: ContractDto }) {
  return (
    <Stack direction="row" spacing={1} alignItems="center">
      <Box
        aria-hidden
        sx={{ width: 28, height: 18, borderRadius: 0.5, border: 1, borderColor: 'divider', background: COLOUR_HEX[contract.boja] }}
      />
      <span>{COLOUR_MEANINGS[contract.boja]}</span>
    </Stack>
  );
}

/** The clusters linked to the contract; a row opens the cluster (from=LOKACIJE). */
function LinkedClusters({ contract }: { contract: ContractDto }) {
  const navigate = useNavigate();
  if (contract.lokacije.length === 0) return <Typography color="text.secondary">{CONTRACT_LABELS.noLinkedClusters}</Typography>;
  return (
    <Table size="small" aria-label={CONTRACT_LABELS.linkedClusters}>
      <TableHead>
        <TableRow>
          <TableCell>{UI.clusterName}</TableCell>
          <TableCell>{UI.status}</TableCell>
          <TableCell>{UI.responsibleGroups}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {contract.lokacije.map((l) => {
          const open = () => navigate(clusterDetailPath(l._id), { state: FROM_CLUSTER_LIST });
          return (
            <TableRow
              key={l._id}
              hover
              tabIndex={0}
              sx={{ cursor: 'pointer' }}
              onClick={open}
              onKeyDown={(e) => {
                if (e.key === 'Enter') open();
              }}
            >
              <TableCell>{l.naziv}</TableCell>
              <TableCell>{statusLabel(l.status)}</TableCell>
              <TableCell>{l.odgovoran.map((g) => g.naziv).join(', ') || UI.empty}</TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}

function ContractView({ kind, contract }: { kind: ContractKind; contract: ContractDto }) {
  const navigate = useNavigate();
  const typed = CONTRACT_GROUP_TYPE[kind] !== null;
  const rows: [string, ReactNode][] = [
    [CONTRACT_LABELS.kind, CONTRACT_KIND_LABELS[kind]],
    [UI.naziv, contract.naziv],
    [UI.broj, contract.broj],
    [UI.status, statusLabel(contract.status)],
    [UI.datumPocetka, formatDate(contract.datumPocetka) || UI.empty],
    [UI.rokTrajanja, String(contract.rokTrajanja)],
    [UI.rokZavrsetka, formatDate(contract.rokZavrsetka) || UI.empty],
    [UI.datumZavrsetka, formatDate(contract.datumZavrsetka) || UI.empty],
    [CONTRACT_LABELS.colour, <Colour key="colour" contract={contract} />],
  ];
  if (typed) {
    rows.push([
      CONTRACT_LABELS.groupsOfKind[kind as Exclude<ContractKind, 'contract'>],
      contract.grupe.map((g) => g.naziv).join(', ') || UI.empty,
    ]);
  }
  const rowColour = deadlineRowColor(contract.boja);
  return (
    <Stack spacing={2}>
      <Paper
        component="section"
        aria-label={CONTRACT_LABELS.contractData}
        sx={{ p: 2, borderLeft: 8, borderLeftColor: rowColour ?? 'divider' }}
      >
        <Typography variant="h3" component="h2" gutterBottom>
          {CONTRACT_LABELS.contractData}
        </Typography>
        <DetailRows label={CONTRACT_LABELS.contractData} rows={rows} />
      </Paper>
      <Paper component="section" aria-label={UI.documents} sx={{ p: 2 }}>
        <Typography variant="h3" component="h2" gutterBottom>
          {UI.documents}
        </Typography>
        <DocumentList kind={kind} contractId={contract._id} files={contract.fajlovi} nameMax={LIST_NAME_MAX} />
      </Paper>
      <Paper component="section" aria-label={CONTRACT_LABELS.linkedClusters} sx={{ p: 2 }}>
        <Stack direction="row" alignItems="center" justifyContent="space-between" flexWrap="wrap" useFlexGap spacing={1} sx={{ mb: 1 }}>
          <Typography variant="h3" component="h2">
            {CONTRACT_LABELS.linkedClusters}
          </Typography>
          {!isFinished(contract) && (
            <Button startIcon={<LinkIcon />} onClick={() => navigate(linkPath(contract), { state: { from: LINK_FROM[kind] } })}>
              {CONTRACT_LABELS.linkClusters}
            </Button>
          )}
        </Stack>
        <LinkedClusters contract={contract} />
      </Paper>
    </Stack>
  );
}

/**
 * /app/ugovor/{id} (spec 2 §2 "Contract detail", Admin): the contract's data with its colour, its
 * documents and the linked clusters. The navigation state (CONTRACTS-IZV, -PRO, -NAD, or none for the
 * general list) names the kind; the contract is asked for as that kind first, then as the others, so a
 * typed-in address works too.
 */
export function ContractPage() {
  const { id = '' } = useParams();
  const { state } = useLocation();
  const first = kindOfDetailState(state);
  const found = useContractQuery(id, first);
  const kind = found.data?.kind ?? first;
  const back = appPath(LIST_ROUTE[kind]);

  return (
    <Stack spacing={2}>
      <Stack direction="row" alignItems="center" spacing={2} flexWrap="wrap" useFlexGap>
        <Button component={RouterLink} to={back} startIcon={<ArrowBackIcon />}>
          {UI.back}
        </Button>
        <Typography variant="h1">{found.data?.contract.naziv ?? SCREEN_TITLES.contract}</Typography>
      </Stack>
      {found.isPending ? (
        <Box sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
          <CircularProgress aria-label={UI.loading} />
        </Box>
      ) : found.isError ? (
        <Alert severity="error">{messageOf(found.error, COMMON.notFound)}</Alert>
      ) : (
        <ContractView kind={found.data.kind} contract={found.data.contract} />
      )}
    </Stack>
  );
}

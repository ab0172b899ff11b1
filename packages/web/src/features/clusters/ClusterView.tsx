import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import {
  Alert,
  Box,
  Button,
  Collapse,
  FormControlLabel,
  Paper,
  Stack,
  Switch,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { formatDate } from '@trasa/domain';
import { type ReactNode, useDeferredValue, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import type { LocationDto } from '../../api/clusters';
import { messageOf, statusOf } from '../../api/errors';
import type { SettlementDto } from '../../api/settlements';
import { DetailRows } from '../../components/DetailRows';
import { NotFoundPage } from '../../components/NotFoundPage';
import { PageLoader } from '../../components/PageLoader';
import { COMMON } from '../../messages';
import { UI } from '../../texts';
import { ActivitiesTable } from './ActivitiesTable';
import { ActivityTimeline } from './ActivityTimeline';
import { ContractInfo } from './ContractInfo';
import { contractsOf, formatMetres, formatMoney, groupLabel, statusLabel } from './format';
import { useLocationQuery } from './queries';

function count(value: number | null): string {
  return value === null ? UI.empty : String(value);
}

function SettlementList({ label, settlements }: { label: string; settlements: SettlementDto[] }) {
  if (settlements.length === 0) return <Typography color="text.secondary">{COMMON.emptyTable}</Typography>;
  return (
    <Box sx={{ overflowX: 'auto' }}>
      <Table size="small" aria-label={label}>
        <TableHead>
          <TableRow>
            <TableCell>{UI.settlementId}</TableCell>
            <TableCell>{UI.naziv}</TableCell>
            <TableCell>{UI.maticniBroj}</TableCell>
            <TableCell>{UI.opstina}</TableCell>
            <TableCell align="right">{UI.brojDomacinstava}</TableCell>
            <TableCell align="right">{UI.brojSkola}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {settlements.map((s) => (
            <TableRow key={s._id}>
              <TableCell>{s.id}</TableCell>
              <TableCell>{s.naziv}</TableCell>
              <TableCell>{s.maticniBroj || UI.empty}</TableCell>
              <TableCell>{s.opstina.join(', ') || UI.empty}</TableCell>
              <TableCell align="right">{count(s.brojDomacinstava)}</TableCell>
              <TableCell align="right">{count(s.brojSkola)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper component="section" aria-label={title} sx={{ p: 2 }}>
      <Typography variant="h3" component="h2" gutterBottom>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

/** The cluster's personal card: its data, settlements, incidental settlements, contracts and activities. */
export function ClusterCard({ location }: { location: LocationDto }) {
  const responsible = location.odgovoran.map(groupLabel).join(', ');
  return (
    <Stack spacing={2}>
      <Section title={UI.clusterInfo}>
        <DetailRows
          label={UI.clusterInfo}
          rows={[
            [UI.clusterName, location.naziv],
            [UI.status, statusLabel(location.status)],
            [UI.responsibleGroups, responsible || UI.empty],
            [UI.contract, location.ugovor?.naziv ?? UI.notLinked],
            [UI.indikativnaDuzina, formatMetres(location.indikativnaDuzinaKlastera)],
            [UI.ugovorenaVrednost, formatMoney(location.ugovorenaVrednostKlastera)],
            [UI.adresa, location.adresa || UI.empty],
            [UI.datumZavrsetka, formatDate(location.datumZavrsetka) || UI.empty],
          ]}
        />
      </Section>
      <Section title={UI.settlementsInCluster}>
        <SettlementList label={UI.settlementsInCluster} settlements={location.naselja} />
      </Section>
      <Section title={UI.incidentalSettlements}>
        <SettlementList label={UI.incidentalSettlements} settlements={location.usputnaNaselja} />
      </Section>
      <Section title={UI.contractInfo}>
        <Stack spacing={2}>
          {contractsOf(location).map(({ kind, contract }) => (
            <ContractInfo key={kind} kind={kind} contract={contract} locationId={location._id} />
          ))}
        </Stack>
      </Section>
      <Section title={UI.activitiesInfo}>
        <DetailRows
          label={UI.activitiesInfo}
          rows={[
            [UI.activityCount, String(location.aktivnosti?.length ?? 0)],
            [UI.status, statusLabel(location.status)],
          ]}
        />
      </Section>
    </Stack>
  );
}

type Props = {
  id: string;
  /** Where the back button goes (the list the cluster was opened from). */
  backTo: string;
  /** The personal card starts open (issue 13: folded, the page looked empty); its toggle folds it. */
  cardOpen?: boolean;
};

/** One cluster: back button, its name, the personal card behind a toggle, then its activities. */
export function ClusterView({ id, backTo, cardOpen = true }: Props) {
  const query = useLocationQuery(id);
  // The answer renders in a deferred, non-urgent pass (React Query's store update renders at once, in one task).
  const answer = useDeferredValue(query.data ?? null, null);
  const [showCard, setShowCard] = useState(cardOpen);

  const back = (
    <Button component={RouterLink} to={backTo} startIcon={<ArrowBackIcon />}>
      {UI.back}
    </Button>
  );
  if (query.isPending || (query.isSuccess && !answer)) return <PageLoader />;
  // A missing id, or one outside the user's visibility (the server answers 404 alike): the not-found page.
  if (query.isError && [400, 404].includes(statusOf(query.error) ?? 0)) return <NotFoundPage />;
  if (query.isError) {
    return (
      <Stack spacing={2} alignItems="flex-start">
        {back}
        <Alert severity="error">{messageOf(query.error, COMMON.notFound)}</Alert>
      </Stack>
    );
  }
  const location = answer ?? query.data;
  return (
    <Stack spacing={2}>
      <Stack direction="row" alignItems="center" spacing={2} flexWrap="wrap" useFlexGap>
        {back}
        <Typography variant="h1">{location.naziv}</Typography>
      </Stack>
      <Box>
        <FormControlLabel control={<Switch checked={showCard} onChange={(e) => setShowCard(e.target.checked)} />} label={UI.personalCard} />
      </Box>
      <Collapse in={showCard} unmountOnExit>
        <ClusterCard location={location} />
      </Collapse>
      <Typography variant="h3" component="h2">
        {UI.activities}
      </Typography>
      <ActivitiesTable location={location} />
      <ActivityTimeline location={location} />
    </Stack>
  );
}

import { Paper, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import { checkedHolderIds, DATA_KEYS, dataValue, formatDate, holderIds, parseAmount } from '@trasa/domain';
import type { ReactNode } from 'react';
import type { ActivityDto, DataItem } from '../../api/activities';
import { DetailRows } from '../../components/DetailRows';
import { inScript } from '../../script';
import { dataItemName } from '../../shipped';
import { UI } from '../../texts';
import { formatMoney, formatNumber } from '../clusters/format';
import { SlotFiles } from './files';
import { ACTIVITY_LABELS } from './labels';
import { slotFiles } from './model';
import { useHolderNameOf } from './sections/A7Section';

const MONEY_KEYS: readonly string[] = [DATA_KEYS.fee, DATA_KEYS.revisedValue, DATA_KEYS.a7Fee, DATA_KEYS.extraFee];
const NUMBER_KEYS: readonly string[] = [DATA_KEYS.revisedLength, DATA_KEYS.routeLength, DATA_KEYS.number];
/** Ids only: shown through their names (IjoNazivi, the A7 table). */
const HIDDEN_KEYS: readonly string[] = [DATA_KEYS.holders, DATA_KEYS.a7Checked];

function shownValue(item: DataItem): string {
  if (item.key === DATA_KEYS.date) return formatDate(item.vrednost) || item.vrednost;
  if (MONEY_KEYS.includes(item.key)) return parseAmount(item.vrednost) === null ? item.vrednost : formatMoney(parseAmount(item.vrednost));
  if (NUMBER_KEYS.includes(item.key)) return parseAmount(item.vrednost) === null ? item.vrednost : formatNumber(parseAmount(item.vrednost));
  if (item.key === DATA_KEYS.holderNames) return item.vrednost.split(',').join(', ');
  // The A3 outcome ('Dobijena IOL', 'Da', …) is one of the spec's words, not typed text.
  if (item.key === DATA_KEYS.yesNo) return inScript(item.vrednost);
  return item.vrednost;
}

/** A finished A7: each holder with done (yes/no), the fee in RSD and its file. */
function A7Table({ activity }: { activity: ActivityDto }) {
  const holderName = useHolderNameOf(activity);
  const checked = new Set(checkedHolderIds(activity.podaci));
  return (
    <TableContainer sx={{ overflowX: 'auto' }}>
      <Table size="small" aria-label={ACTIVITY_LABELS.holders}>
        <TableHead>
          <TableRow>
            <TableCell>{ACTIVITY_LABELS.holder}</TableCell>
            <TableCell>{ACTIVITY_LABELS.done}</TableCell>
            <TableCell align="right">{ACTIVITY_LABELS.fee}</TableCell>
            <TableCell>{ACTIVITY_LABELS.file}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {holderIds(activity.podaci).map((id) => (
            <TableRow key={id}>
              <TableCell>{holderName(id)}</TableCell>
              <TableCell>{checked.has(id) ? ACTIVITY_LABELS.yes : ACTIVITY_LABELS.no}</TableCell>
              <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                {formatMoney(parseAmount(dataValue(activity.podaci, DATA_KEYS.a7Fee, id)))}
              </TableCell>
              <TableCell>
                <SlotFiles activity={activity} files={slotFiles(activity, id)} emptyText={UI.empty} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/**
 * The activity's data read-only (finished, or for who may not change it): for A7 the holder table,
 * for the others the name/value pairs. Nothing when there are no data.
 */
export function ActivityData({ activity }: { activity: ActivityDto }) {
  const a7 = activity.kratakNaziv === 'A7' && holderIds(activity.podaci).length > 0;
  const items = activity.podaci.filter(
    (p) =>
      !HIDDEN_KEYS.includes(p.key) && p.vrednost.trim() !== '' && !(a7 && (p.key === DATA_KEYS.a7Fee || p.key === DATA_KEYS.holderNames)),
  );
  if (!a7 && items.length === 0) return null;
  const rows: [string, ReactNode][] = items.map((item) => [dataItemName(activity.kratakNaziv, item), shownValue(item)]);
  return (
    <Paper component="section" aria-label={ACTIVITY_LABELS.data} sx={{ p: 2 }}>
      <Typography variant="h3" component="h2" gutterBottom>
        {ACTIVITY_LABELS.data}
      </Typography>
      {a7 && <A7Table activity={activity} />}
      {rows.length > 0 && <DetailRows label={ACTIVITY_LABELS.data} rows={rows} />}
    </Paper>
  );
}

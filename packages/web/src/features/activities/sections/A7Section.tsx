import {
  Box,
  Checkbox,
  FormControlLabel,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import { checkedHolderIds, DATA_KEYS, dataValue, holderIds, MONEY_DECIMALS } from '@trasa/domain';
import { type ReactNode, useMemo, useState } from 'react';
import type { ActivityDto, DataItem } from '../../../api/activities';
import { amountHelper, amountKeystroke } from '../../../components/amounts';
import { RSD } from '../../../components/units';
import { dataLabel } from '../../../messages';
import { SavedNote, useAutosave } from '../autosave';
import { holderNames } from '../Documents';
import { FileUpload, SlotFiles } from '../files';
import { ACTIVITY_LABELS } from '../labels';
import { slotFiles } from '../model';
import { useHoldersQuery, useSaveData } from '../queries';
import { Block } from './common';

type Rows = { checked: string[]; fees: Record<string, string> };

/** Holder names by id: the IJO list first, then what the activity's data carry. */
export function useHolderNameOf(activity: ActivityDto) {
  const holders = useHoldersQuery();
  return useMemo(() => {
    const fromData = holderNames(activity.podaci);
    const fromList = new Map((holders.data ?? []).map((h) => [h._id, h.naziv]));
    return (id: string) => fromList.get(id) ?? fromData.get(id) ?? ACTIVITY_LABELS.unknownHolder;
  }, [holders.data, activity.podaci]);
}

/**
 * A7: one row per holder chosen on A6.1: done checkbox, fee (digits and one separator; '0' allowed,
 * empty not for a done holder) and one file. The rows save 800 ms after the last change.
 */
export function A7Section({ activity }: { activity: ActivityDto }) {
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const save = useSaveData(activity);
  const nameOf = useHolderNameOf(activity);
  const ids = holderIds(activity.podaci);
  const [rows, setRows] = useState<Rows>(() => ({
    checked: checkedHolderIds(activity.podaci),
    fees: Object.fromEntries(ids.map((id) => [id, dataValue(activity.podaci, DATA_KEYS.a7Fee, id) ?? ''])),
  }));
  const autosave = useAutosave(
    (r: Rows) =>
      save([
        {
          key: DATA_KEYS.a7Checked,
          naziv: dataLabel('A7', DATA_KEYS.a7Checked),
          vrednost: ids.filter((id) => r.checked.includes(id)).join(','),
        },
        ...ids.map<DataItem>((id) => ({ key: DATA_KEYS.a7Fee, ref: id, naziv: nameOf(id), vrednost: r.fees[id] ?? '' })),
      ]),
    'other',
  );
  const update = (next: Rows) => {
    setRows(next);
    autosave.schedule(next);
  };
  const toggle = (id: string, on: boolean) =>
    update({ ...rows, checked: on ? [...rows.checked.filter((c) => c !== id), id] : rows.checked.filter((c) => c !== id) });
  // Why the last keystroke in a holder's fee was refused (amounts.ts), shown under that fee.
  const [hints, setHints] = useState<Record<string, string | null>>({});
  const setFee = (id: string, raw: string) => {
    const typed = amountKeystroke(raw, rows.fees[id] ?? '', MONEY_DECIMALS);
    setHints((h) => ({ ...h, [id]: typed.hint }));
    if (!typed.hint) update({ ...rows, fees: { ...rows.fees, [id]: typed.value } });
  };

  if (ids.length === 0)
    return (
      <Block title={ACTIVITY_LABELS.holders}>
        <Typography color="text.secondary">{ACTIVITY_LABELS.noHolders}</Typography>
      </Block>
    );

  const feeField = (id: string) => {
    const missing = rows.checked.includes(id) && !(rows.fees[id] ?? '').trim();
    return (
      <TextField
        size="small"
        name={`${DATA_KEYS.a7Fee}-${id}`}
        value={rows.fees[id] ?? ''}
        onChange={(e) => setFee(id, e.target.value)}
        error={missing}
        helperText={amountHelper(rows.fees[id] ?? '', MONEY_DECIMALS, RSD, hints[id] ?? null)}
        autoComplete="off"
        label={phone ? ACTIVITY_LABELS.fee : undefined}
        slotProps={{ htmlInput: { inputMode: 'decimal', 'aria-label': `${ACTIVITY_LABELS.fee}: ${nameOf(id)}` } }}
        sx={{ width: { xs: '100%', sm: 150 } }}
      />
    );
  };
  const doneBox = (id: string, withLabel: boolean): ReactNode => {
    const box = (
      <Checkbox
        checked={rows.checked.includes(id)}
        onChange={(e) => toggle(id, e.target.checked)}
        slotProps={{ input: { 'aria-label': `${ACTIVITY_LABELS.done}: ${nameOf(id)}` } }}
      />
    );
    return withLabel ? <FormControlLabel control={box} label={ACTIVITY_LABELS.done} /> : box;
  };
  const fileCell = (id: string) => (
    <Stack spacing={0.5}>
      <SlotFiles activity={activity} files={slotFiles(activity, id)} />
      <FileUpload
        activity={activity}
        isRequired
        userInput={id}
        multiple={false}
        compact
        ariaLabel={`${ACTIVITY_LABELS.chooseFile}: ${nameOf(id)}`}
      />
    </Stack>
  );

  return (
    <Block title={ACTIVITY_LABELS.holders}>
      {phone ? (
        <Stack component="ul" spacing={1} sx={{ m: 0, p: 0, listStyle: 'none' }} aria-label={ACTIVITY_LABELS.holders}>
          {ids.map((id) => (
            <Box component="li" key={id} sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5 }}>
              <Typography sx={{ fontWeight: 700 }}>{nameOf(id)}</Typography>
              {doneBox(id, true)}
              {feeField(id)}
              <Box sx={{ mt: 1 }}>{fileCell(id)}</Box>
            </Box>
          ))}
        </Stack>
      ) : (
        <Table size="small" aria-label={ACTIVITY_LABELS.holders}>
          <TableHead>
            <TableRow>
              <TableCell>{ACTIVITY_LABELS.holder}</TableCell>
              <TableCell padding="checkbox">{ACTIVITY_LABELS.done}</TableCell>
              <TableCell>{ACTIVITY_LABELS.fee}</TableCell>
              <TableCell>{ACTIVITY_LABELS.file}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {ids.map((id) => (
              <TableRow key={id}>
                <TableCell>{nameOf(id)}</TableCell>
                <TableCell padding="checkbox">{doneBox(id, false)}</TableCell>
                <TableCell>{feeField(id)}</TableCell>
                <TableCell>{fileCell(id)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      <SavedNote state={autosave.state} kind="other" />
    </Block>
  );
}

import { Stack, TextField } from '@mui/material';
import { amountDecimals, DATA_KEYS, dataValue, isFutureDate, isIsoDate, parseAmountText } from '@trasa/domain';
import { type ReactNode, useState } from 'react';
import type { ActivityDto } from '../../api/activities';
import { amountHelper, amountKeystroke } from '../../components/amounts';
import { DateField } from '../../components/dates';
import { LABEL_ABOVE, RSD, unitInput } from '../../components/units';
import { ACTIVITIES, dataLabel } from '../../messages';
import { SavedNote, type SaveKind, useAutosave } from './autosave';
import { ACTIVITY_LABELS } from './labels';
import { useSaveData } from './queries';

type DateProps = {
  activity: ActivityDto;
  label?: string;
  /** The code's completion rule needs the date: clearing it shows 'Unesite datum.'. */
  required?: boolean;
};

/**
 * The activity's date (key Datum, YYYY-MM-DD), saved 800 ms after the last change. No future dates:
 * the picker stops at today and a typed future date is refused here as on the server.
 */
export function AutoDateField({ activity, label = ACTIVITY_LABELS.date, required = false }: DateProps) {
  const save = useSaveData(activity);
  const [value, setValue] = useState(() => dataValue(activity.podaci, DATA_KEYS.date) ?? '');
  const [error, setError] = useState<string | null>(null);
  const autosave = useAutosave(
    (v: string) => save([{ key: DATA_KEYS.date, naziv: dataLabel(activity.kratakNaziv, DATA_KEYS.date), vrednost: v }]),
    'date',
  );
  const change = (next: string, incomplete = false) => {
    setValue(next);
    if (incomplete || (next && !isIsoDate(next))) {
      setError(null);
      autosave.cancel();
      return;
    }
    if (next && isFutureDate(next)) {
      setError(ACTIVITIES.futureDate);
      autosave.cancel();
      return;
    }
    setError(!next && required ? ACTIVITIES.enterField('datum') : null);
    autosave.schedule(next);
  };
  return (
    <FieldWithNote note={<SavedNote state={autosave.state} kind="date" />}>
      <DateField
        name={DATA_KEYS.date}
        label={label}
        value={value}
        onChange={change}
        required={required}
        disableFuture
        fullWidth={false}
        error={!!error}
        helperText={error ?? ' '}
        sx={{ width: { xs: '100%', sm: 240 } }}
      />
    </FieldWithNote>
  );
}

type NumberProps = {
  activity: ActivityDto;
  dataKey: string;
  /** The stored naziv of the item; by default the domain's label of the key. */
  naziv?: string;
  label: string;
  /** An accessible name other than the label (one per row). */
  ariaLabel?: string;
  /** Inside a table whose column header names the field. */
  hideLabel?: boolean;
  /** Per-entity items (A1 route length per settlement). */
  itemRef?: string;
  kind?: SaveKind;
  /** Empty is refused with 'Polje je obavezno' (A26.1, A27.1). */
  required?: boolean;
  helperText?: string;
  /** A narrow field inside a table row. */
  compact?: boolean;
  /** The unit shown at the end of the input (m, RSD). */
  unit?: string;
};

/** Keys whose amount is money (shown '= 2,50 RSD' under the field even without the unit in the input). */
const MONEY_KEYS: readonly string[] = [DATA_KEYS.fee, DATA_KEYS.a7Fee, DATA_KEYS.extraFee, DATA_KEYS.revisedValue];

/**
 * A number saved 800 ms after the last change, typed by the rule of the domain's amounts.ts: digits and
 * one separator (a comma becomes a dot), at most the key's decimals (amountDecimals); a keystroke that
 * breaks it is refused (the text stays) with the reason under the field, and otherwise the amount as
 * understood is shown there at once ('= 2,50 RSD'). Empty removes it.
 */
export function AutoNumberField({
  activity,
  dataKey,
  naziv,
  label,
  ariaLabel,
  hideLabel = false,
  itemRef,
  kind = 'item',
  required = false,
  helperText = ' ',
  compact = false,
  unit,
}: NumberProps) {
  const save = useSaveData(activity);
  const [value, setValue] = useState(() => dataValue(activity.podaci, dataKey, itemRef) ?? '');
  const [error, setError] = useState<string | null>(null);
  const autosave = useAutosave(
    (v: string) =>
      save([
        {
          key: dataKey,
          naziv: naziv ?? dataLabel(activity.kratakNaziv, dataKey),
          vrednost: v,
          ...(itemRef !== undefined ? { ref: itemRef } : {}),
        },
      ]),
    kind,
  );
  const decimals = amountDecimals(activity.kratakNaziv, dataKey);
  const shownUnit = unit ?? (MONEY_KEYS.includes(dataKey) ? RSD : '');
  const [hint, setHint] = useState<string | null>(null);
  const change = (raw: string) => {
    const typed = amountKeystroke(raw, value, decimals);
    setHint(typed.hint);
    if (typed.hint) return;
    const next = typed.value;
    setValue(next);
    if (next && parseAmountText(next, decimals) === null) {
      setError(ACTIVITIES.validNumber);
      autosave.cancel();
      return;
    }
    setError(!next && required ? ACTIVITIES.required : null);
    autosave.schedule(next);
  };
  const understood = amountHelper(value, decimals, shownUnit, hint);
  const note = compact || !helperText.trim() ? null : helperText;
  const helper = error ?? (understood && note ? `${understood} · ${note}` : (understood ?? (compact ? undefined : helperText)));
  return (
    <FieldWithNote note={<SavedNote state={autosave.state} kind={kind} />} compact={compact}>
      <TextField
        name={itemRef ? `${dataKey}-${itemRef}` : dataKey}
        label={hideLabel ? undefined : label}
        value={value}
        onChange={(e) => change(e.target.value)}
        error={!!error}
        helperText={helper}
        size={compact ? 'small' : 'medium'}
        autoComplete="off"
        slotProps={{
          htmlInput: { inputMode: 'decimal', 'aria-label': ariaLabel ?? label },
          input: unit ? unitInput(unit) : undefined,
          inputLabel: unit ? LABEL_ABOVE : undefined,
        }}
        sx={{ width: compact ? { xs: '100%', md: 190 } : { xs: '100%', sm: 240 } }}
      />
    </FieldWithNote>
  );
}

/** Free text saved 800 ms after the last change (the CEOP number: 'ROP-…' as the e-permit system gives it). */
export function AutoTextField({ activity, dataKey, label }: { activity: ActivityDto; dataKey: string; label: string }) {
  const save = useSaveData(activity);
  const [value, setValue] = useState(() => dataValue(activity.podaci, dataKey) ?? '');
  const autosave = useAutosave(
    (v: string) => save([{ key: dataKey, naziv: dataLabel(activity.kratakNaziv, dataKey), vrednost: v.trim() }]),
    'item',
  );
  return (
    <FieldWithNote note={<SavedNote state={autosave.state} kind="item" />}>
      <TextField
        name={dataKey}
        label={label}
        value={value}
        onChange={(e) => {
          setValue(e.target.value);
          autosave.schedule(e.target.value);
        }}
        autoComplete="off"
        helperText=" "
        slotProps={{ htmlInput: { maxLength: 1000 } }}
        sx={{ width: { xs: '100%', sm: 360 } }}
      />
    </FieldWithNote>
  );
}

/** A field with its saved note beside it (under it on a phone). */
export function FieldWithNote({ children, note, compact = false }: { children: ReactNode; note: ReactNode; compact?: boolean }) {
  return (
    <Stack
      direction={compact ? 'column' : { xs: 'column', sm: 'row' }}
      spacing={compact ? 0 : { xs: 0, sm: 2 }}
      alignItems={compact ? 'flex-start' : { xs: 'flex-start', sm: 'center' }}
    >
      {children}
      <div style={{ minHeight: compact ? 0 : 24, paddingBottom: compact ? 0 : 20 }}>{note}</div>
    </Stack>
  );
}

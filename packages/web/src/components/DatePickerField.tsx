/**
 * The pickers behind DateField (dates.tsx), loaded with the first date field a screen shows: MUI X on
 * dayjs with the adapter's plugins and the Serbian locales stay out of the screens without a date
 * (issue 13 budgets). Each field brings its localization, in the locale dateLocale() picks for the script.
 */
import 'dayjs/locale/sr';
import 'dayjs/locale/sr-cyrl';
import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import { DesktopDatePicker } from '@mui/x-date-pickers/DesktopDatePicker';
import { DesktopDateTimePicker } from '@mui/x-date-pickers/DesktopDateTimePicker';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import type { PickersInputLocaleText } from '@mui/x-date-pickers/locales';
import { toCyrillic, toLatin } from '@trasa/domain/translit';
import dayjs, { type Dayjs } from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { getScript, onScriptChange, type Script } from '../script';
import { DATE_FORMAT, DATE_TIME_FORMAT, type DateFieldProps, type DateKind, dateLocale, VALUE_FORMAT } from './dates';

dayjs.extend(customParseFormat);

/** The pickers' own texts (MUI X has no Serbian locale), in the current script. */
function localeText(script: Script): PickersInputLocaleText {
  const t = script === 'lat' ? toLatin : toCyrillic;
  return {
    previousMonth: t('Претходни месец'),
    nextMonth: t('Следећи месец'),
    openPreviousView: t('Претходни приказ'),
    openNextView: t('Следећи приказ'),
    calendarViewSwitchingButtonAriaLabel: (view) =>
      view === 'year' ? t('Приказ година, пређи на календар') : t('Календар, пређи на приказ година'),
    cancelButtonLabel: t('Одустани'),
    clearButtonLabel: t('Обриши'),
    okButtonLabel: t('У реду'),
    todayButtonLabel: t('Данас'),
    nextStepButtonLabel: t('Даље'),
    datePickerToolbarTitle: t('Изаберите датум'),
    dateTimePickerToolbarTitle: t('Изаберите датум и време'),
    timePickerToolbarTitle: t('Изаберите време'),
    openDatePickerDialogue: (formatted) => (formatted ? `${t('Изаберите датум, изабран је')} ${formatted}` : t('Изаберите датум')),
    openTimePickerDialogue: (formatted) => (formatted ? `${t('Изаберите време, изабрано је')} ${formatted}` : t('Изаберите време')),
    fieldClearLabel: t('Обриши'),
    timeTableLabel: t('Изаберите време'),
    dateTableLabel: t('Изаберите датум'),
    // The empty field's pattern in Serbian letters of the script: 'ДД.ММ.ГГГГ ЧЧ:мм' / 'DD.MM.GGGG ČČ:mm'.
    fieldYearPlaceholder: (params) => t('Г').repeat(params.digitAmount),
    fieldMonthPlaceholder: (params) => t(params.contentType === 'letter' ? 'ММММ' : 'ММ'),
    fieldDayPlaceholder: () => t('ДД'),
    fieldHoursPlaceholder: () => t('ЧЧ'),
    fieldMinutesPlaceholder: () => t('мм'),
    year: t('Година'),
    month: t('Месец'),
    day: t('Дан'),
    hours: t('Сати'),
    minutes: t('Минути'),
    empty: t('Празно'),
  };
}

/** The pickers' localization: dayjs in the locale of the current script, re-rendered when it changes. */
function DatesProvider({ children }: { children: ReactNode }) {
  const [script, setScriptState] = useState<Script>(getScript);
  useEffect(() => onScriptChange(setScriptState), []);
  const texts = useMemo(() => localeText(script), [script]);
  return (
    <LocalizationProvider dateAdapter={AdapterDayjs} adapterLocale={dateLocale(script)} localeText={texts}>
      {children}
    </LocalizationProvider>
  );
}

/** Dates before 1900 (the pickers' own lower bound) count as not yet typed: '2' in the year is 0002. */
const EARLIEST_YEAR = 1900;

function parse(value: string | null | undefined, kind: DateKind): Dayjs | null {
  if (!value) return null;
  const d = dayjs(value, VALUE_FORMAT[kind], true);
  return d.isValid() ? d : null;
}

function serialise(d: Dayjs | null, kind: DateKind): string {
  return d?.isValid() && d.year() >= EARLIEST_YEAR ? d.format(VALUE_FORMAT[kind]) : '';
}

/** The picker behind DateField: a date (or date-time) typed and shown DD.MM.YYYY (HH:mm), with a calendar button. */
export function DatePickerField({
  value,
  onChange,
  onBlur,
  label,
  name,
  kind = 'date',
  required,
  disabled,
  error,
  helperText,
  disableFuture,
  size,
  fullWidth = true,
  sx,
  inputRef,
}: DateFieldProps) {
  const external = value ?? '';
  // The picker's own value: a half-typed date stays in the field while the form holds ''.
  const [day, setDay] = useState<Dayjs | null>(() => parse(external, kind));
  const [seen, setSeen] = useState(external);
  if (external !== seen) {
    setSeen(external);
    if (serialise(day, kind) !== external) setDay(parse(external, kind));
  }
  const change = (next: Dayjs | null) => {
    setDay(next);
    const text = serialise(next, kind);
    setSeen(text);
    onChange(text, next !== null && text === '');
  };
  const textField = {
    name,
    required,
    error,
    helperText,
    onBlur,
    size,
    fullWidth,
    sx,
    inputRef,
  };
  const common = {
    label,
    value: day,
    onChange: change,
    disabled,
    disableFuture,
    enableAccessibleFieldDOMStructure: false as const,
    slotProps: { textField },
  };
  return kind === 'datetime' ? (
    <DesktopDateTimePicker {...common} format={DATE_TIME_FORMAT} ampm={false} />
  ) : (
    <DesktopDatePicker {...common} format={DATE_FORMAT} />
  );
}

/** A DateField's picker in its own localization, following the script. */
export default function LocalizedDatePicker(props: DateFieldProps) {
  return (
    <DatesProvider>
      <DatePickerField {...props} />
    </DatesProvider>
  );
}

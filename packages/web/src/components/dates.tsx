/**
 * Dates shown and typed DD.MM.YYYY (and HH:mm) whatever the browser's language (issue 13 item 8): MUI X
 * pickers on dayjs, in the Serbian locale of the web's script. The browser's own date inputs follow its
 * language (03/01/2025 in an English browser), so none is used.
 *
 * The fields keep the API's strings (YYYY-MM-DD, or YYYY-MM-DDTHH:mm in local time for a date-time):
 * '' while the field is empty, incomplete or not a real date. The field is a plain text input
 * (enableAccessibleFieldDOMStructure false): it takes a whole typed or pasted '25.11.2026' as well as
 * section-by-section typing, and keeps the input's `name` for forms and tests.
 */
import 'dayjs/locale/sr';
import 'dayjs/locale/sr-cyrl';
import type { SxProps, Theme } from '@mui/material';
import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import { DesktopDatePicker } from '@mui/x-date-pickers/DesktopDatePicker';
import { DesktopDateTimePicker } from '@mui/x-date-pickers/DesktopDateTimePicker';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import type { PickersInputLocaleText } from '@mui/x-date-pickers/locales';
import { toCyrillic, toLatin } from '@trasa/domain/translit';
import dayjs, { type Dayjs } from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat';
import { type ReactNode, type Ref, useEffect, useMemo, useState } from 'react';
import { type Control, Controller, type FieldPath, type FieldValues } from 'react-hook-form';
import { getScript, onScriptChange, type Script } from '../script';

dayjs.extend(customParseFormat);

/** The shown (typed) formats and the API's value formats. */
export const DATE_FORMAT = 'DD.MM.YYYY';
export const DATE_TIME_FORMAT = 'DD.MM.YYYY HH:mm';
const VALUE_FORMAT = { date: 'YYYY-MM-DD', datetime: 'YYYY-MM-DDTHH:mm' } as const;

type DateKind = keyof typeof VALUE_FORMAT;

/** The one place the pickers' locale follows the script: dayjs 'sr-cyrl' for Ћирилица, 'sr' for Latinica. */
export function dateLocale(script: Script = getScript()): 'sr-cyrl' | 'sr' {
  return script === 'lat' ? 'sr' : 'sr-cyrl';
}

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
    cancelButtonLabel: t('Откажи'),
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
    fieldYearPlaceholder: (params) => 'Y'.repeat(params.digitAmount),
    fieldMonthPlaceholder: (params) => (params.contentType === 'letter' ? 'MMMM' : 'MM'),
    fieldDayPlaceholder: () => 'DD',
    fieldHoursPlaceholder: () => 'HH',
    fieldMinutesPlaceholder: () => 'mm',
    year: t('Година'),
    month: t('Месец'),
    day: t('Дан'),
    hours: t('Сати'),
    minutes: t('Минути'),
    empty: t('Празно'),
  };
}

/**
 * The pickers' localization for the whole signed-in app (mounted once by the shell): dayjs in the locale
 * of the current script, re-rendered when the script changes.
 */
export function DatesProvider({ children }: { children: ReactNode }) {
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

/** Today as the API's date (YYYY-MM-DD), in local time. */
export function todayValue(): string {
  return dayjs().format(VALUE_FORMAT.date);
}

export type DateFieldProps = {
  /** The API's string: YYYY-MM-DD (date) or YYYY-MM-DDTHH:mm in local time (date-time); '' for none. */
  value: string | null | undefined;
  /**
   * The API's string of a complete, real date; '' when the field is empty or not (yet) a date. `incomplete`
   * tells a half-typed or impossible date from an empty field.
   */
  onChange: (value: string, incomplete: boolean) => void;
  onBlur?: () => void;
  label: string;
  /** The input's name attribute (the API field). */
  name?: string;
  kind?: DateKind;
  required?: boolean;
  disabled?: boolean;
  error?: boolean;
  helperText?: ReactNode;
  /** No date after today (spec 3: activity dates, the report comparison). */
  disableFuture?: boolean;
  size?: 'small' | 'medium';
  fullWidth?: boolean;
  sx?: SxProps<Theme>;
  inputRef?: Ref<HTMLInputElement>;
};

/** A date (or date-time) typed and shown DD.MM.YYYY (HH:mm), with a calendar button. */
export function DateField({
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

type FormProps<T extends FieldValues, C, TOut> = Omit<DateFieldProps, 'value' | 'onChange' | 'onBlur' | 'error' | 'name' | 'inputRef'> & {
  control: Control<T, C, TOut>;
  /** Also the input's `name` attribute: the API field. */
  name: FieldPath<T>;
};

/** A DateField bound to react-hook-form, showing its validation message under it. */
export function FormDateField<T extends FieldValues, C, TOut>({ control, name, helperText, disabled, ...rest }: FormProps<T, C, TOut>) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <DateField
          {...rest}
          name={field.name}
          value={field.value ?? ''}
          onChange={(v) => field.onChange(v)}
          onBlur={field.onBlur}
          inputRef={field.ref}
          disabled={field.disabled || disabled}
          error={!!fieldState.error}
          helperText={fieldState.error?.message ?? helperText}
        />
      )}
    />
  );
}

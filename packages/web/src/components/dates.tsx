/**
 * Dates shown and typed DD.MM.YYYY (and HH:mm) whatever the browser's language (issue 13 item 8): MUI X
 * pickers on dayjs, in the Serbian locale of the web's script. The browser's own date inputs follow its
 * language (03/01/2025 in an English browser), so none is used.
 *
 * The fields keep the API's strings (YYYY-MM-DD, or YYYY-MM-DDTHH:mm in local time for a date-time):
 * '' while the field is empty, incomplete or not a real date. The field is a plain text input
 * (enableAccessibleFieldDOMStructure false): it takes a whole typed or pasted '25.11.2026' as well as
 * section-by-section typing, and keeps the input's `name` for forms and tests.
 *
 * This module is light: the pickers (DatePickerField.tsx, with their localization) load lazily with the
 * first date field shown; until then the field shows its value in a disabled text field.
 */

import type { SxProps, Theme } from '@mui/material';
import { TextField } from '@mui/material';
import { isoDate } from '@trasa/domain';
import { lazy, type ReactNode, type Ref, Suspense } from 'react';
import { type Control, Controller, type FieldPath, type FieldValues } from 'react-hook-form';
import type { Script } from '../script';
import { getScript } from '../script';

/** The shown (typed) formats and the API's value formats. */
export const DATE_FORMAT = 'DD.MM.YYYY';
export const DATE_TIME_FORMAT = 'DD.MM.YYYY HH:mm';
export const VALUE_FORMAT = { date: 'YYYY-MM-DD', datetime: 'YYYY-MM-DDTHH:mm' } as const;

export type DateKind = keyof typeof VALUE_FORMAT;

/** The one place the pickers' locale follows the script: dayjs 'sr-cyrl' for Ћирилица, 'sr' for Latinica. */
export function dateLocale(script: Script = getScript()): 'sr-cyrl' | 'sr' {
  return script === 'lat' ? 'sr' : 'sr-cyrl';
}

/** Today as the API's date (YYYY-MM-DD), in local time. */
export function todayValue(): string {
  return isoDate(new Date());
}

/** An API date or local date-time as shown: DD.MM.YYYY (HH:mm); '' for none. */
function shown(value: string | null | undefined): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}:\d{2}))?/.exec(value ?? '');
  return m ? `${m[3]}.${m[2]}.${m[1]}${m[4] ? ` ${m[4]}` : ''}` : '';
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

const LocalizedDatePicker = lazy(() => import('./DatePickerField'));

/** A date (or date-time) typed and shown DD.MM.YYYY (HH:mm), with a calendar button. */
export function DateField(props: DateFieldProps) {
  const { label, value, required, helperText, size, fullWidth = true, sx } = props;
  const waiting = (
    <TextField
      label={label}
      value={shown(value)}
      required={required}
      helperText={helperText}
      size={size}
      fullWidth={fullWidth}
      sx={sx}
      disabled
    />
  );
  return (
    <Suspense fallback={waiting}>
      <LocalizedDatePicker {...props} fullWidth={fullWidth} />
    </Suspense>
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

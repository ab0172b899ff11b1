import { MenuItem, TextField, type TextFieldProps } from '@mui/material';
import { type Control, Controller, type FieldPath, type FieldValues } from 'react-hook-form';
import { inScript } from '../script';

export type SelectOption = { value: string; label: string };

type Props<T extends FieldValues, C, TOut> = Omit<
  TextFieldProps,
  'name' | 'value' | 'onChange' | 'onBlur' | 'error' | 'label' | 'select' | 'children'
> & {
  control: Control<T, C, TOut>;
  name: FieldPath<T>;
  label: string;
  options: readonly SelectOption[];
  /** Shown for the empty value ('' ), when the field may stay empty. */
  emptyLabel?: string;
  /** Called after the field changes, with the new value (e.g. to clear a dependent field). */
  onValueChange?: (value: string) => void;
};

/** A labelled MUI select bound to react-hook-form; the value is the option's `value` (an _id or a key). */
export function FormSelect<T extends FieldValues, C, TOut>({
  control,
  name,
  label,
  options,
  emptyLabel,
  onValueChange,
  helperText,
  ...rest
}: Props<T, C, TOut>) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => {
        const value = typeof field.value === 'string' ? field.value : '';
        // A value outside the options (e.g. not loaded yet) shows empty instead of an MUI warning.
        const known = value === '' || options.some((o) => o.value === value);
        return (
          <TextField
            {...rest}
            select
            label={label}
            name={field.name}
            value={known ? value : ''}
            onChange={(e) => {
              field.onChange(e.target.value);
              onValueChange?.(e.target.value);
            }}
            onBlur={field.onBlur}
            inputRef={field.ref}
            disabled={field.disabled || rest.disabled}
            error={!!fieldState.error}
            helperText={fieldState.error ? inScript(fieldState.error.message ?? '') : helperText}
            fullWidth={rest.fullWidth ?? true}
          >
            {emptyLabel !== undefined && (
              <MenuItem value="">
                <em>{emptyLabel}</em>
              </MenuItem>
            )}
            {options.map((o) => (
              <MenuItem key={o.value} value={o.value}>
                {o.label}
              </MenuItem>
            ))}
          </TextField>
        );
      }}
    />
  );
}

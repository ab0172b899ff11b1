import { TextField, type TextFieldProps } from '@mui/material';
import { useState } from 'react';
import { type Control, Controller, type FieldPath, type FieldValues } from 'react-hook-form';
import { inScript } from '../script';
import { amountHelper, amountKeystroke } from './amounts';

type Props<T extends FieldValues, C, TOut> = Omit<TextFieldProps, 'name' | 'value' | 'onChange' | 'onBlur' | 'error' | 'label'> & {
  control: Control<T, C, TOut>;
  /** Also the input's `name` attribute: the API field. */
  name: FieldPath<T>;
  label: string;
  /** Decimals the amount may carry (domain amounts.ts: money 2, inventory quantities 3). */
  decimals: number;
  /** The unit of the amount as understood ('= 2,50 RSD'); '' for none. */
  unit: string;
};

/**
 * A form's money or quantity field (react-hook-form): typed by the domain's rule (digits and one
 * separator, at most `decimals` decimals; a keystroke breaking it is refused with the reason under the
 * field), with the amount as understood shown under it at once ('= 2.500,50 RSD').
 */
export function AmountTextField<T extends FieldValues, C, TOut>({
  control,
  name,
  label,
  decimals,
  unit,
  helperText,
  ...rest
}: Props<T, C, TOut>) {
  const [hint, setHint] = useState<string | null>(null);
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => {
        const value = typeof field.value === 'number' ? String(field.value) : ((field.value as string | null | undefined) ?? '');
        return (
          <TextField
            {...rest}
            label={label}
            name={field.name}
            value={value}
            onChange={(e) => {
              const typed = amountKeystroke(e.target.value, value, decimals);
              setHint(typed.hint);
              if (!typed.hint) field.onChange(typed.value);
            }}
            onBlur={field.onBlur}
            inputRef={field.ref}
            disabled={field.disabled || rest.disabled}
            error={!!fieldState.error}
            helperText={
              fieldState.error ? inScript(fieldState.error.message ?? '') : (amountHelper(value, decimals, unit, hint) ?? helperText)
            }
            fullWidth={rest.fullWidth ?? true}
          />
        );
      }}
    />
  );
}

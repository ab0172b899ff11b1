import { type Control, Controller, type FieldPath, type FieldValues } from 'react-hook-form';
import { inScript } from '../script';
import type { SelectOption } from './FormSelect';
import { OptionPicker } from './OptionPicker';

type Props<T extends FieldValues, C, TOut> = {
  control: Control<T, C, TOut>;
  name: FieldPath<T>;
  label: string;
  options: readonly SelectOption[];
  disabled?: boolean;
  required?: boolean;
  loading?: boolean;
  helperText?: string;
  onValueChange?: (value: string) => void;
};

/** OptionPicker bound to a react-hook-form field holding an _id ('' for none). */
export function FormOptionPicker<T extends FieldValues, C, TOut>({
  control,
  name,
  label,
  options,
  disabled,
  required,
  loading,
  helperText,
  onValueChange,
}: Props<T, C, TOut>) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <OptionPicker
          label={label}
          name={field.name}
          options={options}
          value={typeof field.value === 'string' ? field.value : ''}
          onChange={(value) => {
            field.onChange(value);
            onValueChange?.(value);
          }}
          onBlur={field.onBlur}
          inputRef={field.ref}
          disabled={field.disabled || disabled}
          required={required}
          loading={loading}
          error={fieldState.error?.message === undefined ? undefined : inScript(fieldState.error.message)}
          helperText={helperText}
        />
      )}
    />
  );
}

import { TextField, type TextFieldProps } from '@mui/material';
import { type Control, Controller, type FieldPath, type FieldValues } from 'react-hook-form';
import { inScript } from '../script';

type Props<T extends FieldValues, C, TOut> = Omit<TextFieldProps, 'name' | 'value' | 'onChange' | 'onBlur' | 'error' | 'label'> & {
  control: Control<T, C, TOut>;
  /** Also the input's `name` attribute: the API field. */
  name: FieldPath<T>;
  label: string;
};

/** A labelled MUI text field bound to react-hook-form, showing its validation message under it. */
export function FormTextField<T extends FieldValues, C, TOut>({ control, name, label, helperText, ...rest }: Props<T, C, TOut>) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <TextField
          {...rest}
          label={label}
          name={field.name}
          value={field.value ?? ''}
          onChange={field.onChange}
          onBlur={field.onBlur}
          inputRef={field.ref}
          disabled={field.disabled || rest.disabled}
          error={!!fieldState.error}
          helperText={fieldState.error ? inScript(fieldState.error.message ?? '') : helperText}
          fullWidth={rest.fullWidth ?? true}
        />
      )}
    />
  );
}

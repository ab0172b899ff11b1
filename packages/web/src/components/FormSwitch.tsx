import { FormControlLabel, Switch } from '@mui/material';
import { type Control, Controller, type FieldPath, type FieldValues } from 'react-hook-form';

type Props<T extends FieldValues, C, TOut> = {
  control: Control<T, C, TOut>;
  name: FieldPath<T>;
  label: string;
  disabled?: boolean;
  /** Called after the switch changes (e.g. emailPotvrdjen drives status). */
  onValueChange?: (checked: boolean) => void;
};

/** A labelled switch bound to a boolean field of react-hook-form. */
export function FormSwitch<T extends FieldValues, C, TOut>({ control, name, label, disabled, onValueChange }: Props<T, C, TOut>) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <FormControlLabel
          label={label}
          disabled={field.disabled || disabled}
          control={
            <Switch
              name={field.name}
              checked={field.value === true}
              onChange={(_, checked) => {
                field.onChange(checked);
                onValueChange?.(checked);
              }}
              onBlur={field.onBlur}
              inputRef={field.ref}
            />
          }
        />
      )}
    />
  );
}

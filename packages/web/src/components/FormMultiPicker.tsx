import { Autocomplete, Chip, TextField } from '@mui/material';
import { useMemo } from 'react';
import { type Control, Controller, type FieldPath, type FieldValues } from 'react-hook-form';
import { COMMON } from '../messages';
import { inScript } from '../script';
import type { SelectOption } from './FormSelect';
import { foldedFilter, keepEnterInPicker } from './pickerFilter';

type Props<T extends FieldValues, C, TOut> = {
  control: Control<T, C, TOut>;
  /** A field holding a list of _ids. */
  name: FieldPath<T>;
  label: string;
  options: readonly SelectOption[];
  disabled?: boolean;
  /** Marks the field as required (an asterisk and aria-required). */
  required?: boolean;
  loading?: boolean;
  helperText?: string;
  /** At most this many matches are listed while typing (long lists such as settlements). */
  limit?: number;
};

function idsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** A searchable multi-select bound to a react-hook-form list of _ids; the chosen options show as chips. */
export function FormMultiPicker<T extends FieldValues, C, TOut>({
  control,
  name,
  label,
  options,
  disabled,
  required,
  loading,
  helperText,
  limit = 100,
}: Props<T, C, TOut>) {
  // Typing matches the label in either script (pickerFilter).
  const filterOptions = useMemo(() => foldedFilter<SelectOption>((o) => o.label, limit), [limit]);
  const byValue = useMemo(() => new Map(options.map((o) => [o.value, o])), [options]);
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => {
        const selected = idsOf(field.value).map((id) => byValue.get(id) ?? { value: id, label: id });
        return (
          <Autocomplete
            multiple
            options={options}
            value={selected}
            onChange={(_, chosen) => field.onChange(chosen.map((o) => o.value))}
            onBlur={field.onBlur}
            filterOptions={filterOptions}
            filterSelectedOptions
            isOptionEqualToValue={(a, b) => a.value === b.value}
            getOptionLabel={(o) => o.label}
            getOptionKey={(o) => o.value}
            disabled={field.disabled || disabled}
            loading={loading}
            noOptionsText={COMMON.emptyTable}
            fullWidth
            autoHighlight
            onKeyDown={keepEnterInPicker}
            renderValue={(chosen, getItemProps) =>
              chosen.map((option, index) => {
                const { key, ...itemProps } = getItemProps({ index });
                return <Chip key={key} size="small" label={option.label} {...itemProps} />;
              })
            }
            renderInput={(params) => (
              <TextField
                {...params}
                label={label}
                required={required}
                name={field.name}
                inputRef={field.ref}
                error={!!fieldState.error}
                helperText={fieldState.error ? inScript(fieldState.error.message ?? '') : helperText}
              />
            )}
          />
        );
      }}
    />
  );
}

import { Autocomplete, TextField } from '@mui/material';
import { COMMON } from '@trasa/domain';
import type { Ref } from 'react';
import type { SelectOption } from './FormSelect';

type Props = {
  /** The visible label; without one, `placeholder` and `ariaLabel` name the field (e.g. inside a table row). */
  label?: string;
  placeholder?: string;
  options: readonly SelectOption[];
  /** The chosen option's value, '' for none. */
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  name?: string;
  disabled?: boolean;
  error?: string;
  helperText?: string;
  loading?: boolean;
  size?: 'small' | 'medium';
  inputRef?: Ref<HTMLInputElement>;
  /** An accessible name other than the label (e.g. one per table row). */
  ariaLabel?: string;
};

/** A searchable picker over many options (groups): type to narrow, the value is the option's `value`. */
export function OptionPicker({
  label,
  placeholder,
  options,
  value,
  onChange,
  onBlur,
  name,
  disabled,
  error,
  helperText,
  loading,
  size,
  inputRef,
  ariaLabel,
}: Props) {
  const selected = options.find((o) => o.value === value) ?? null;
  return (
    <Autocomplete
      options={options}
      value={selected}
      onChange={(_, option) => onChange(option?.value ?? '')}
      onBlur={onBlur}
      isOptionEqualToValue={(a, b) => a.value === b.value}
      getOptionLabel={(o) => o.label}
      getOptionKey={(o) => o.value}
      disabled={disabled}
      loading={loading}
      size={size}
      noOptionsText={COMMON.emptyTable}
      fullWidth
      renderInput={(params) => (
        <TextField
          {...params}
          label={label}
          placeholder={placeholder}
          name={name}
          inputRef={inputRef}
          error={!!error}
          helperText={error ?? helperText}
          slotProps={{ htmlInput: { ...params.inputProps, ...(ariaLabel ? { 'aria-label': ariaLabel } : {}) } }}
        />
      )}
    />
  );
}

import { Autocomplete, TextField } from '@mui/material';
import type { Ref } from 'react';
import { COMMON } from '../messages';
import type { SelectOption } from './FormSelect';
import { foldedFilter, keepEnterInPicker } from './pickerFilter';

/** Typing matches the label in either script (pickerFilter). */
const filterOptions = foldedFilter<SelectOption>((o) => o.label);

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
  /** Marks the field as required (an asterisk and aria-required). */
  required?: boolean;
  error?: string;
  helperText?: string;
  loading?: boolean;
  size?: 'small' | 'medium';
  inputRef?: Ref<HTMLInputElement>;
  /** An accessible name other than the label (e.g. one per table row). */
  ariaLabel?: string;
};

/** A searchable picker over many options (groups, clusters): type to narrow in either script, the value is the option's `value`. */
export function OptionPicker({
  label,
  placeholder,
  options,
  value,
  onChange,
  onBlur,
  name,
  disabled,
  required,
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
      filterOptions={filterOptions}
      isOptionEqualToValue={(a, b) => a.value === b.value}
      getOptionLabel={(o) => o.label}
      getOptionKey={(o) => o.value}
      disabled={disabled}
      loading={loading}
      size={size}
      noOptionsText={COMMON.emptyTable}
      fullWidth
      autoHighlight
      onKeyDown={keepEnterInPicker}
      renderInput={(params) => (
        <TextField
          {...params}
          label={label}
          placeholder={placeholder}
          required={required}
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

import { Autocomplete, Chip, TextField } from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { INVENTORY_KEY, type NamedRef, searchInventoryLocations } from '../../api/inventory';
import { useDebouncedValue } from '../../components/useDebouncedValue';
import { COMMON } from '../../messages';

/** The server is asked 300 ms after the last key. */
const TYPING_MS = 300;

function useLocationSearch(text: string) {
  const value = useDebouncedValue(text.trim(), TYPING_MS);
  return useQuery({
    queryKey: [...INVENTORY_KEY, 'location-search', value],
    queryFn: ({ signal }) => searchInventoryLocations(value, signal),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}

type CommonProps = {
  label: string;
  /** Locations not offered (e.g. already on the contract). */
  exclude?: ReadonlySet<string>;
  size?: 'small' | 'medium';
};

const sameId = (a: NamedRef, b: NamedRef) => a._id === b._id;

/** One location, searched on the server as the user types (GET /api/location/get/autocomplete). */
export function LocationPicker({
  label,
  value,
  onChange,
  size,
  exclude,
}: CommonProps & { value: NamedRef | null; onChange: (v: NamedRef | null) => void }) {
  const [text, setText] = useState('');
  const found = useLocationSearch(text);
  const options = (found.data ?? []).filter((l) => !exclude?.has(l._id));
  return (
    <Autocomplete
      options={options}
      value={value}
      onChange={(_, v) => onChange(v)}
      onInputChange={(_, v, reason) => reason === 'input' && setText(v)}
      filterOptions={(o) => o}
      isOptionEqualToValue={sameId}
      getOptionLabel={(o) => o.naziv}
      getOptionKey={(o) => o._id}
      loading={found.isFetching}
      noOptionsText={COMMON.emptyTable}
      size={size}
      fullWidth
      renderInput={(params) => <TextField {...params} label={label} />}
    />
  );
}

/** Several locations (chips), searched on the server as the user types. */
export function LocationsPicker({
  label,
  value,
  onChange,
  size,
  exclude,
}: CommonProps & { value: NamedRef[]; onChange: (v: NamedRef[]) => void }) {
  const [text, setText] = useState('');
  const found = useLocationSearch(text);
  const options = (found.data ?? []).filter((l) => !exclude?.has(l._id));
  return (
    <Autocomplete
      multiple
      options={options}
      value={value}
      onChange={(_, v) => onChange(v)}
      onInputChange={(_, v, reason) => reason === 'input' && setText(v)}
      filterOptions={(o) => o}
      filterSelectedOptions
      isOptionEqualToValue={sameId}
      getOptionLabel={(o) => o.naziv}
      getOptionKey={(o) => o._id}
      loading={found.isFetching}
      noOptionsText={COMMON.emptyTable}
      size={size}
      fullWidth
      renderValue={(values, getItemProps) =>
        values.map((option, index) => {
          const { key, ...itemProps } = getItemProps({ index });
          return <Chip key={key} size="small" label={option.naziv} {...itemProps} />;
        })
      }
      renderInput={(params) => <TextField {...params} label={label} />}
    />
  );
}

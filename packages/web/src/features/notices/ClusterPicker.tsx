import { Autocomplete, TextField } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { autocompleteLocations, type LocationOption } from '../../api/clusters';
import { useDebouncedValue } from '../../components/useDebouncedValue';
import { COMMON } from '../../messages';
import { UI } from '../../texts';

/** Typing in the picker waits this long before asking the server. */
const TYPE_DEBOUNCE_MS = 300;

type Props = { label: string; value: LocationOption | null; onChange: (value: LocationOption | null) => void };

/** A cluster by name: the server's autocomplete (GET /api/location/get/autocomplete, either script). */
export function ClusterPicker({ label, value, onChange }: Props) {
  const [input, setInput] = useState('');
  const typed = useDebouncedValue(input.trim(), TYPE_DEBOUNCE_MS);
  const options = useQuery({
    queryKey: ['locations', 'autocomplete', typed],
    queryFn: ({ signal }) => autocompleteLocations(typed, signal),
    staleTime: 30_000,
  });
  return (
    <Autocomplete
      options={options.data ?? []}
      value={value}
      onChange={(_, option) => onChange(option)}
      inputValue={input}
      onInputChange={(_, text) => setInput(text)}
      filterOptions={(list) => list}
      isOptionEqualToValue={(a, b) => a._id === b._id}
      getOptionLabel={(o) => o.nazivLokacije}
      getOptionKey={(o) => o._id}
      loading={options.isFetching}
      loadingText={UI.loading}
      noOptionsText={COMMON.emptyTable}
      size="small"
      fullWidth
      renderInput={(params) => <TextField {...params} label={label} />}
    />
  );
}

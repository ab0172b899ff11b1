import SearchIcon from '@mui/icons-material/Search';
import { InputAdornment, TextField } from '@mui/material';
import { memo } from 'react';
import { UI } from '../../texts';

/** 'Претрага...': memoised, the list's loader does not render it again. */
export const SearchBox = memo(function SearchBox({ value, onChange }: { value: string; onChange: (text: string) => void }) {
  return (
    <TextField
      value={value}
      onChange={(e) => onChange(e.target.value)}
      placeholder={UI.search}
      type="search"
      sx={{ width: { xs: '100%', sm: 260 } }}
      slotProps={{
        htmlInput: { 'aria-label': UI.search },
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <SearchIcon fontSize="small" />
            </InputAdornment>
          ),
        },
      }}
    />
  );
});

import { Box, CircularProgress } from '@mui/material';
import { UI } from '../texts';

export function PageLoader() {
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', alignItems: 'center', minHeight: '50vh' }}>
      <CircularProgress aria-label={UI.loading} />
    </Box>
  );
}

import { Box, Button, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { COMMON } from '../messages';
import { UI } from '../texts';
import { useDocumentTitle } from './useDocumentTitle';

/**
 * Any unknown path, and any screen outside the user's role (spec 1 §2.1, §2.2); a screen may name what is
 * missing instead (an activity: 'Nepostojeći korak', spec 3 §2.1).
 */
export function NotFoundPage({ fullPage = false, title = COMMON.pageNotFound }: { fullPage?: boolean; title?: string }) {
  useDocumentTitle(title);
  return (
    <Box
      component={fullPage ? 'main' : 'div'}
      sx={{
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        gap: 3,
        textAlign: 'center',
        p: 3,
        minHeight: fullPage ? '100vh' : '50vh',
      }}
    >
      <Typography variant="h1" component="h1">
        {title}
      </Typography>
      <Button component={RouterLink} to="/app" variant="contained">
        {UI.backHome}
      </Button>
    </Box>
  );
}

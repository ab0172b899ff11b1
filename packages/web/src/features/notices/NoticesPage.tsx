import { Alert, Paper, Typography } from '@mui/material';
import { ACCOUNT, roleIn } from '@trasa/domain';
import { UnderConstructionPage } from '../../components/UnderConstructionPage';
import { SCREEN_TITLES } from '../../shell/screenTitles';
import { useCurrentUser } from '../../shell/session';

/** /app: a guest waits for a role (spec 1 §2.3); the notices themselves come later. */
export function NoticesPage() {
  const user = useCurrentUser();
  if (roleIn(user.rola, ['Gost'])) {
    return (
      <Paper sx={{ p: 3 }}>
        <Typography variant="h1" gutterBottom>
          {SCREEN_TITLES.notices}
        </Typography>
        <Alert severity="info" role="status">
          {ACCOUNT.guestWaiting}
        </Alert>
      </Paper>
    );
  }
  return <UnderConstructionPage title={SCREEN_TITLES.notices} />;
}

import { Alert, Button, Portal, Snackbar } from '@mui/material';
import { OFFLINE } from '../offline/texts';
import { applyUpdate, useUpdateWaiting } from '../offline/update';

/**
 * 'Нова верзија је спремна — Освежи': shown while a new version of the application waits (the service
 * worker's prompt). It stays until the user chooses: the page reloads only on 'Освежи', so nothing typed
 * is lost to an update. Bottom centre, apart from the notices at the top.
 */
export function UpdateNotice() {
  const waiting = useUpdateWaiting();
  return (
    <Portal>
      <Snackbar open={waiting} anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}>
        <Alert
          severity="info"
          role="status"
          sx={{ boxShadow: 6, alignItems: 'center' }}
          action={
            <Button color="inherit" variant="outlined" size="small" onClick={() => void applyUpdate()}>
              {OFFLINE.updateReload}
            </Button>
          }
        >
          {OFFLINE.updateReady}
        </Alert>
      </Snackbar>
    </Portal>
  );
}

import CloudOffIcon from '@mui/icons-material/CloudOff';
import { Alert, AlertTitle, Box, Button } from '@mui/material';
import { useServedFromDevice } from '../offline/kept';
import { useNetworkState } from '../offline/network';
import { keptTime, OFFLINE } from '../offline/texts';
import { SHARED } from './sharedTexts';

/**
 * 'Ван мреже — подаци од {time}' over a screen whose answer for `path` came from the device's copy (the
 * time it was saved), or, while the app is offline, over one still showing what the network answered
 * earlier in this visit (`fetchedAt`). Nothing while the screen shows the network's answer online.
 */
export function OfflineNote({ path, fetchedAt }: { path: string; fetchedAt?: number }) {
  const keptAt = useServedFromDevice(path);
  const { online } = useNetworkState();
  const time = keptAt ?? (!online && fetchedAt ? fetchedAt : null);
  if (time === null) return null;
  return (
    <Alert severity="info" icon={<CloudOffIcon fontSize="inherit" />} role="status" data-testid="offline-note">
      {OFFLINE.since(keptTime(time))}
    </Alert>
  );
}

/** In place of a screen the device has no copy of while the network is down: says so, with a retry. */
export function NotKeptOffline({ text, onRetry }: { text: string; onRetry?: () => void }) {
  return (
    <Box sx={{ p: { xs: 0, sm: 2 } }}>
      <Alert
        severity="warning"
        icon={<CloudOffIcon fontSize="inherit" />}
        role="status"
        data-testid="not-kept-offline"
        action={
          onRetry && (
            <Button color="inherit" variant="outlined" size="small" onClick={onRetry}>
              {SHARED.retry}
            </Button>
          )
        }
      >
        <AlertTitle>{OFFLINE.notKept}</AlertTitle>
        {text}
      </Alert>
    </Box>
  );
}

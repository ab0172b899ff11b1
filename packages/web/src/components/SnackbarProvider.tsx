import { Alert, type AlertColor, Portal, Snackbar } from '@mui/material';
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';

/** Notices hide after 2 s unless a call asks otherwise (spec 1 §8, §9). */
export const SNACKBAR_DEFAULT_MS = 2000;

type Notice = { id: number; message: string; severity: AlertColor; duration: number };

export type Notify = (message: string, severity?: AlertColor, duration?: number) => void;
type SnackbarApi = {
  notify: Notify;
  success: (message: string, duration?: number) => void;
  error: (message: string, duration?: number) => void;
};

const SnackbarContext = createContext<SnackbarApi | null>(null);

let nextId = 1;

/** One notice at a time, top centre; a new notice replaces the shown one. */
export function SnackbarProvider({ children }: { children: ReactNode }) {
  const [notice, setNotice] = useState<Notice | null>(null);
  const [open, setOpen] = useState(false);

  const notify = useCallback<Notify>((message, severity = 'success', duration = SNACKBAR_DEFAULT_MS) => {
    setNotice({ id: nextId++, message, severity, duration });
    setOpen(true);
  }, []);

  const value = useMemo<SnackbarApi>(
    () => ({
      notify,
      success: (message, duration) => notify(message, 'success', duration),
      error: (message, duration) => notify(message, 'error', duration),
    }),
    [notify],
  );

  return (
    <SnackbarContext.Provider value={value}>
      {children}
      {/* In a portal of its own: an open dialog hides the app from assistive technology, not a notice shown over it. */}
      <Portal>
        <Snackbar
          key={notice?.id}
          open={open && notice !== null}
          autoHideDuration={notice?.duration ?? SNACKBAR_DEFAULT_MS}
          anchorOrigin={{ vertical: 'top', horizontal: 'center' }}
          onClose={(_, reason) => {
            if (reason !== 'clickaway') setOpen(false);
          }}
        >
          <Alert variant="filled" severity={notice?.severity ?? 'success'} onClose={() => setOpen(false)} sx={{ width: '100%' }}>
            {notice?.message}
          </Alert>
        </Snackbar>
      </Portal>
    </SnackbarContext.Provider>
  );
}

export function useSnackbar(): SnackbarApi {
  const api = useContext(SnackbarContext);
  if (!api) throw new Error('useSnackbar outside SnackbarProvider');
  return api;
}

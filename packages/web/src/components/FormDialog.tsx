import { Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack } from '@mui/material';
import { type FormEventHandler, type ReactNode, useId } from 'react';
import { UI } from '../texts';

type Props = {
  open: boolean;
  title: string;
  onClose: () => void;
  onSubmit: FormEventHandler<HTMLFormElement>;
  children: ReactNode;
  submitLabel?: string;
  cancelLabel?: string;
  /** Disables the buttons while the call runs. */
  busy?: boolean;
  /** Read-only: only a close button. */
  readOnly?: boolean;
};

/**
 * A modal form 800 px wide (spec 1 §9) with cancel and submit buttons. DialogGuard (in the shell) focuses
 * its first field and asks before a changed form is closed.
 */
export function FormDialog({
  open,
  title,
  onClose,
  onSubmit,
  children,
  submitLabel = UI.save,
  cancelLabel = UI.cancel,
  busy = false,
  readOnly = false,
}: Props) {
  const titleId = useId();
  return (
    <Dialog
      open={open}
      onClose={busy ? undefined : onClose}
      aria-labelledby={titleId}
      fullWidth
      maxWidth={false}
      slotProps={{ paper: { sx: { width: '100%', maxWidth: 800 } } }}
    >
      <Box component="form" noValidate onSubmit={onSubmit} aria-labelledby={titleId}>
        <DialogTitle id={titleId}>{title}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {children}
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onClose} disabled={busy} data-dialog-cancel={readOnly ? undefined : ''}>
            {readOnly ? UI.close : cancelLabel}
          </Button>
          {!readOnly && (
            <Button type="submit" variant="contained" disabled={busy}>
              {submitLabel}
            </Button>
          )}
        </DialogActions>
      </Box>
    </Dialog>
  );
}

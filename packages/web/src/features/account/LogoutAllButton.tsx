import DevicesIcon from '@mui/icons-material/Devices';
import { Button } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { logoutAll } from '../../api/account';
import { messageOf } from '../../api/errors';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useSnackbar } from '../../components/SnackbarProvider';
import { ACCOUNT } from '../../messages';
import { useEndSession } from '../../shell/session';

/** Signs out every session of the user (POST /api/user/logout-all), this one included. */
export function LogoutAllButton() {
  const [open, setOpen] = useState(false);
  const snackbar = useSnackbar();
  const endSession = useEndSession();

  const mutation = useMutation({
    mutationFn: logoutAll,
    onSuccess: (data) => {
      setOpen(false);
      snackbar.success(data?.message ?? ACCOUNT.loggedOutEverywhere);
      void endSession();
    },
    onError: (error) => {
      setOpen(false);
      snackbar.error(messageOf(error, ACCOUNT.logoutAllFailed));
    },
  });

  return (
    <>
      <Button variant="outlined" startIcon={<DevicesIcon />} onClick={() => setOpen(true)}>
        {ACCOUNT.logoutAllButton}
      </Button>
      <ConfirmDialog
        open={open}
        title={ACCOUNT.logoutAllConfirm}
        danger={false}
        busy={mutation.isPending}
        onConfirm={() => mutation.mutate()}
        onClose={() => setOpen(false)}
      />
    </>
  );
}

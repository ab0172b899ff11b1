import DeleteIcon from '@mui/icons-material/Delete';
import { Button } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { deleteMyAccount } from '../../api/account';
import { messageOf } from '../../api/errors';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useSnackbar } from '../../components/SnackbarProvider';
import { ACCOUNT } from '../../messages';
import { useEndSession } from '../../shell/session';
import { UI } from '../../texts';

/** Deletes one's own account after 'Da li ste sigurni?'; success ends the session (spec 1 §2.5). */
export function DeleteAccountButton() {
  const [open, setOpen] = useState(false);
  const snackbar = useSnackbar();
  const endSession = useEndSession();

  const mutation = useMutation({
    mutationFn: deleteMyAccount,
    onSuccess: () => {
      setOpen(false);
      snackbar.success(ACCOUNT.accountDeleted);
      void endSession();
    },
    onError: (error) => {
      setOpen(false);
      snackbar.error(messageOf(error, ACCOUNT.accountDeleteFailed));
    },
  });

  return (
    <>
      <Button variant="outlined" color="error" startIcon={<DeleteIcon />} onClick={() => setOpen(true)}>
        {UI.deleteAccount}
      </Button>
      <ConfirmDialog
        open={open}
        title={ACCOUNT.deleteConfirmTitle}
        busy={mutation.isPending}
        onConfirm={() => mutation.mutate()}
        onClose={() => setOpen(false)}
      />
    </>
  );
}

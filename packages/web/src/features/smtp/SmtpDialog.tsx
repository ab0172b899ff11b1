import { Alert } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { smtpCreateSchema } from '@trasa/domain';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { ApiError } from '../../api/client';
import { FormDialog } from '../../components/FormDialog';
import { FormSwitch } from '../../components/FormSwitch';
import { FormTextField } from '../../components/FormTextField';
import { useSnackbar } from '../../components/SnackbarProvider';
import { zodResolver } from '../../components/validation';
import { SMTP } from '../../messages';
import { createSmtp, SMTP_KEY } from './api';
import { SMTP_LABELS } from './labels';

type Form = z.input<typeof smtpCreateSchema>;
type Values = z.output<typeof smtpCreateSchema>;

const EMPTY: Form = { host: '', port: '', email: '', password: '', inUse: false };

/**
 * Add a server (spec 3 §5 "SMTP create"): every field required ('Obavezno polje'), the port a number,
 * the e-mail valid ('Neispravna e-pošta'). A failed save shows 'Neuspešno podešavanje SMTP' (spec 3 §8)
 * and the server's word on each field.
 */
export function SmtpDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const snackbar = useSnackbar();
  const queryClient = useQueryClient();
  const { control, handleSubmit, setError, reset } = useForm<Form, unknown, Values>({
    resolver: zodResolver(smtpCreateSchema),
    defaultValues: EMPTY,
  });
  const mutation = useMutation({
    mutationFn: (body: Values) => createSmtp(body),
    onSuccess: async (data) => {
      snackbar.success(data.message);
      onClose();
      await queryClient.invalidateQueries({ queryKey: SMTP_KEY });
    },
    onError: (error) => {
      if (error instanceof ApiError) {
        for (const [field, message] of Object.entries(error.errors ?? {})) {
          if (field in EMPTY) setError(field as keyof Form, { message });
        }
      }
    },
  });
  const { reset: resetMutation } = mutation;
  useEffect(() => {
    if (open) {
      reset(EMPTY);
      resetMutation();
    }
  }, [open, reset, resetMutation]);

  return (
    <FormDialog
      open={open}
      title={SMTP_LABELS.newTitle}
      onClose={onClose}
      busy={mutation.isPending}
      onSubmit={handleSubmit((values) => mutation.mutate(values))}
    >
      {mutation.isError && <Alert severity="error">{SMTP.createFailed}</Alert>}
      <SmtpFields control={control} passwordRequired />
    </FormDialog>
  );
}

type FieldsProps = {
  // biome-ignore lint/suspicious/noExplicitAny: shared by the create and edit forms (same field names)
  control: any;
  passwordRequired: boolean;
};

/** Host, port, e-mail, password and the in-use switch: the fields of both forms. */
export function SmtpFields({ control, passwordRequired }: FieldsProps) {
  return (
    <>
      <FormTextField control={control} name="host" label={SMTP_LABELS.host} autoComplete="off" required autoFocus />
      <FormTextField control={control} name="port" label={SMTP_LABELS.port} inputMode="numeric" autoComplete="off" required />
      <FormTextField control={control} name="email" label={SMTP_LABELS.email} type="email" autoComplete="off" required />
      <FormTextField
        control={control}
        name="password"
        label={SMTP_LABELS.password}
        type="password"
        autoComplete="new-password"
        required={passwordRequired}
        helperText={passwordRequired ? undefined : SMTP_LABELS.passwordKeep}
      />
      <FormSwitch control={control} name="inUse" label={SMTP_LABELS.inUse} />
    </>
  );
}

import { Box } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { fieldErrorOf, messageOf } from '../../api/errors';
import {
  createInventoryContract,
  editInventoryContract,
  INVENTORY_KEY,
  type InventoryContractDto,
  type RefusedDocument,
  uploadInventoryContractDocuments,
} from '../../api/inventory';
import { FormDateField } from '../../components/dates';
import { FormDialog } from '../../components/FormDialog';
import { FormTextField } from '../../components/FormTextField';
import { useSnackbar } from '../../components/SnackbarProvider';
import { zodResolver } from '../../components/validation';
import { INVENTORY } from '../../messages';
import { createdWithRefusals, DocumentPicker, refusedNotice } from '../contracts/documents';
import { INV_LABELS } from './labels';
import { DOCUMENT_NOTICE_MS } from './texts';

const required = z.string().trim().min(1, INVENTORY.required);
const schema = z.object({ naziv: required, broj: required, datumPocetka: required });
type Form = z.input<typeof schema>;
type Values = z.output<typeof schema>;

const EMPTY: Form = { naziv: '', broj: '', datumPocetka: '' };

/**
 * The new-contract modal of the inventory (spec 3 §5, §7): naziv, broj and datumPocetka required, then
 * the documents (.doc, .docx, .pdf, several) as a multipart POST to /api/contract/contract/{documentId}.
 * 'Ugovor nije kreiran' when the contract fails; an upload failure shows the server's message for 4 s.
 * With `editing`, the same form edits that contract (its fields and new documents in one multipart POST,
 * the server validating as at creation).
 */
export function InventoryContractDialog({
  opening,
  onClose,
  editing = null,
}: {
  opening: number;
  onClose: () => void;
  editing?: InventoryContractDto | null;
}) {
  const snackbar = useSnackbar();
  const queryClient = useQueryClient();
  const [files, setFiles] = useState<File[]>([]);
  const { control, handleSubmit, reset, setError } = useForm<Form, unknown, Values>({
    resolver: zodResolver(schema),
    defaultValues: EMPTY,
  });

  const mutation = useMutation({
    mutationFn: async (v: Values) => {
      if (editing) {
        const edited = await editInventoryContract(editing._id, v, files);
        return { created: { ...edited, document: editing._id }, uploadError: null as unknown, refused: edited.odbijeni ?? [] };
      }
      const created = await createInventoryContract(v);
      let uploadError: unknown = null;
      let refused: RefusedDocument[] = [];
      if (files.length > 0) {
        try {
          refused = (await uploadInventoryContractDocuments(created.document, files)).odbijeni ?? [];
        } catch (error) {
          uploadError = error;
        }
      }
      return { created, uploadError, refused };
    },
    onSuccess: async ({ created, uploadError, refused }) => {
      // The contract exists either way; a failed upload shows the server's message for 4 s (spec 3 §8).
      if (uploadError) snackbar.error(messageOf(uploadError, INVENTORY.documentsFailed), DOCUMENT_NOTICE_MS);
      else if (refused.length > 0)
        snackbar.notify(
          editing
            ? refusedNotice(created.message || INVENTORY.contractEdited, refused)
            : createdWithRefusals(created.message || INVENTORY.contractCreated, files.length, refused),
          'warning',
          DOCUMENT_NOTICE_MS,
        );
      else snackbar.success(created.message || INVENTORY.contractCreated);
      await queryClient.invalidateQueries({ queryKey: INVENTORY_KEY });
      onClose();
    },
    onError: (error) => {
      snackbar.error(messageOf(error, editing ? INVENTORY.contractEditFailed : INVENTORY.contractCreateFailed));
      for (const field of ['naziv', 'broj', 'datumPocetka'] as const) {
        const text = fieldErrorOf(error, field);
        if (text) setError(field, { message: text });
      }
    },
  });
  const { reset: resetMutation } = mutation;

  useEffect(() => {
    if (opening > 0) {
      reset(editing ? { naziv: editing.naziv, broj: editing.broj, datumPocetka: editing.datumPocetka ?? '' } : EMPTY);
      setFiles([]);
      resetMutation();
    }
  }, [opening, editing, reset, resetMutation]);

  return (
    <FormDialog
      open={opening > 0}
      title={editing ? INV_LABELS.editContractTitle : INV_LABELS.newContractTitle}
      onClose={onClose}
      onSubmit={handleSubmit((v) => mutation.mutate(v))}
      busy={mutation.isPending}
    >
      <FormTextField control={control} name="naziv" label={INV_LABELS.contractName} autoComplete="off" required />
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
        <FormTextField control={control} name="broj" label={INV_LABELS.contractNumber} autoComplete="off" required />
        <FormDateField control={control} name="datumPocetka" label={INV_LABELS.datumPocetka} required />
      </Box>
      <DocumentPicker files={files} onChange={setFiles} disabled={mutation.isPending} />
    </FormDialog>
  );
}

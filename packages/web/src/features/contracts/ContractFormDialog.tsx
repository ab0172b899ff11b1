import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Divider,
  Stack,
  Typography,
} from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  CONTRACT_GROUP_TYPE,
  type ContractKind,
  contractCreateSchema,
  contractEditFields,
  type RefusedDocument,
  refineContractFinish,
} from '@trasa/domain';
import { type ReactNode, useId, useMemo, useState } from 'react';
import { type Control, type FieldPath, type FieldValues, useForm } from 'react-hook-form';
import { z } from 'zod';
import { ApiError } from '../../api/client';
import { type ContractDto, type ContractFileDto, createContract, deleteContractFile, saveContractForm } from '../../api/contracts';
import { fieldErrorOf, messageOf } from '../../api/errors';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { FormDateField } from '../../components/dates';
import { FormMultiPicker } from '../../components/FormMultiPicker';
import type { SelectOption } from '../../components/FormSelect';
import { FormSelect } from '../../components/FormSelect';
import { FormTextField } from '../../components/FormTextField';
import { useSnackbar } from '../../components/SnackbarProvider';
import { zodResolver } from '../../components/validation';
import { CLUSTERS, CONTRACTS } from '../../messages';
import { UI } from '../../texts';
import { groupLabel, statusLabel } from '../clusters/format';
import { createdWithRefusals, DOCUMENT_NOTICE_MS, DocumentList, DocumentPicker, EDIT_NAME_MAX, refusedNotice } from './documents';
import { isFinished } from './kinds';
import { CONTRACT_LABELS } from './labels';
import { CONTRACTS_KEY, useContractGroupChoices, useContractQuery } from './queries';

/**
 * The groups of a typed contract, of its kind's type; spec 2 §5 doesn't require one (a contract may be
 * entered before its contractor's group exists), and neither does the server.
 */
const groupIds = z.array(z.string()).default([]);

/** The domain's create schema (spec 2 §5): naziv, broj, datumPocetka, rokTrajanja; grupe for typed kinds. */
const createSchema = contractCreateSchema.extend({ grupe: groupIds });

/**
 * The domain's edit schema: the create fields minus broj, plus status and the end date, with the
 * domain's finish rule (spec 2 §4: a finished contract has its end date, not before the start).
 */
const editSchema = contractEditFields
  .extend({ grupe: groupIds, status: contractEditFields.shape.status.unwrap(), datumZavrsetka: z.string() })
  .superRefine(refineContractFinish);

type CreateForm = z.input<typeof createSchema>;
type CreateOut = z.output<typeof createSchema>;
type EditForm = z.input<typeof editSchema>;
type EditOut = z.output<typeof editSchema>;

const STATUS_OPTIONS: SelectOption[] = [CONTRACTS.statusInProgress, CONTRACTS.statusFinished].map((s) => ({
  value: s,
  label: statusLabel(s),
}));

const DAYS_SLOT = { htmlInput: { inputMode: 'numeric' } } as const;

/** Shows the server's field messages on the form (400 `errors`). */
function showFieldErrors(error: unknown, fields: readonly string[], setError: (field: string, text: string) => void) {
  for (const field of fields) {
    const text = fieldErrorOf(error, field);
    if (text) setError(field, text);
  }
}

/** A refused document names its part (fajl0…): such an error is a document error and stays 4 s. */
function isDocumentError(error: unknown): boolean {
  return error instanceof ApiError && Object.keys(error.errors ?? {}).some((k) => k.startsWith('fajl'));
}

type BodyProps = {
  kind: ContractKind;
  groups: SelectOption[];
  onSaved: () => void;
  onCancel: () => void;
};

function Actions({
  onCancel,
  busy,
  saveDisabled,
  saveLabel,
}: {
  onCancel: () => void;
  busy: boolean;
  saveDisabled?: boolean;
  saveLabel: string;
}) {
  return (
    <DialogActions sx={{ px: 3, pb: 2 }}>
      <Button onClick={onCancel} disabled={busy}>
        {CLUSTERS.cancel}
      </Button>
      <Button type="submit" variant="contained" disabled={busy || saveDisabled}>
        {saveLabel}
      </Button>
    </DialogActions>
  );
}

/** The create modal: POST /api/{route}, then the documents as a multipart POST /api/{route}/{route}/{id} (spec 2 §7). */
function CreateContractForm({ kind, groups, onSaved, onCancel }: BodyProps) {
  const snackbar = useSnackbar();
  const queryClient = useQueryClient();
  const typed = CONTRACT_GROUP_TYPE[kind] !== null;
  const [files, setFiles] = useState<File[]>([]);
  const { control, handleSubmit, setError } = useForm<CreateForm, unknown, CreateOut>({
    resolver: zodResolver(createSchema),
    defaultValues: { naziv: '', broj: '', datumPocetka: '', rokTrajanja: '', grupe: [] },
  });

  const mutation = useMutation({
    mutationFn: async (v: CreateOut) => {
      const created = await createContract(kind, {
        naziv: v.naziv,
        broj: v.broj,
        datumPocetka: v.datumPocetka,
        rokTrajanja: v.rokTrajanja,
        ...(typed ? { grupe: v.grupe } : {}),
      });
      let uploadError: unknown = null;
      let refused: RefusedDocument[] = [];
      if (files.length > 0) {
        try {
          refused = (await saveContractForm(kind, created.document, null, files)).odbijeni ?? [];
        } catch (error) {
          uploadError = error;
        }
      }
      return { created, uploadError, refused };
    },
    onSuccess: async ({ created, uploadError, refused }) => {
      // The contract exists either way; the good documents are stored, each refused one is named with its reason.
      if (uploadError) snackbar.error(messageOf(uploadError, CONTRACT_LABELS.documentsNotUploaded), DOCUMENT_NOTICE_MS);
      else if (refused.length > 0)
        snackbar.notify(createdWithRefusals(created.message || CONTRACTS.created, files.length, refused), 'warning', DOCUMENT_NOTICE_MS);
      else snackbar.success(created.message || CONTRACTS.created);
      await queryClient.invalidateQueries({ queryKey: CONTRACTS_KEY });
      onSaved();
    },
    onError: (error) => {
      snackbar.error(messageOf(error, CONTRACTS.createFailed));
      showFieldErrors(error, ['naziv', 'broj', 'datumPocetka', 'rokTrajanja', 'grupe'], (field, message) =>
        setError(field as keyof CreateForm, { message }),
      );
    },
  });

  return (
    <Box component="form" noValidate onSubmit={handleSubmit((v) => mutation.mutate(v))}>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <FormTextField control={control} name="naziv" label={CONTRACT_LABELS.contractName} autoComplete="off" required />
          <FormTextField control={control} name="broj" label={CONTRACT_LABELS.contractNumber} autoComplete="off" required />
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
            <FormDateField control={control} name="datumPocetka" label={UI.datumPocetka} required />
            <FormTextField control={control} name="rokTrajanja" label={UI.rokTrajanja} autoComplete="off" slotProps={DAYS_SLOT} required />
          </Box>
          {typed && <GroupsPicker control={control} kind={kind} groups={groups} />}
          <DocumentPicker files={files} onChange={setFiles} disabled={mutation.isPending} />
        </Stack>
      </DialogContent>
      <Actions onCancel={onCancel} busy={mutation.isPending} saveLabel={UI.save} />
    </Box>
  );
}

/** The groups of a typed contract, offered by the kind's group type. */
function GroupsPicker<T extends FieldValues & { grupe?: string[] }, C, TOut>({
  control,
  kind,
  groups,
  disabled,
}: {
  control: Control<T, C, TOut>;
  kind: ContractKind;
  groups: SelectOption[];
  disabled?: boolean;
}) {
  const label = kind === 'contract' ? CONTRACT_LABELS.groups : CONTRACT_LABELS.groupsOfKind[kind];
  return <FormMultiPicker control={control} name={'grupe' as FieldPath<T>} label={label} options={groups} disabled={disabled} />;
}

/** The edit dialog: the fields, the current documents (download, remove) and new ones, as one multipart POST. */
function EditContractForm({ kind, groups, onSaved, onCancel, contract }: BodyProps & { contract: ContractDto }) {
  const snackbar = useSnackbar();
  const queryClient = useQueryClient();
  const typed = CONTRACT_GROUP_TYPE[kind] !== null;
  const finished = isFinished(contract);
  const [files, setFiles] = useState<File[]>([]);
  const [removing, setRemoving] = useState<ContractFileDto | null>(null);
  const { control, handleSubmit, setError, watch } = useForm<EditForm, unknown, EditOut>({
    resolver: zodResolver(editSchema),
    defaultValues: {
      naziv: contract.naziv,
      datumPocetka: contract.datumPocetka,
      rokTrajanja: String(contract.rokTrajanja),
      grupe: contract.grupe.map((g) => g._id),
      status: contract.status,
      datumZavrsetka: contract.datumZavrsetka ?? '',
    },
  });
  const status = watch('status');

  const mutation = useMutation({
    mutationFn: (v: EditOut) =>
      saveContractForm(
        kind,
        contract._id,
        {
          naziv: v.naziv,
          datumPocetka: v.datumPocetka,
          rokTrajanja: v.rokTrajanja,
          ...(typed ? { grupe: v.grupe } : {}),
          status: v.status,
          datumZavrsetka: v.status === CONTRACTS.statusFinished ? v.datumZavrsetka : null,
        },
        files,
      ),
    onSuccess: async (data) => {
      const refused = data?.odbijeni ?? [];
      if (refused.length > 0) snackbar.notify(refusedNotice(data?.message || CONTRACTS.edited, refused), 'warning', DOCUMENT_NOTICE_MS);
      else snackbar.success(data?.message || CONTRACTS.edited);
      await queryClient.invalidateQueries({ queryKey: CONTRACTS_KEY });
      onSaved();
    },
    onError: (error) => {
      snackbar.error(messageOf(error, CONTRACTS.editFailed), isDocumentError(error) ? DOCUMENT_NOTICE_MS : undefined);
      showFieldErrors(error, ['naziv', 'datumPocetka', 'rokTrajanja', 'grupe', 'status', 'datumZavrsetka'], (field, message) =>
        setError(field as keyof EditForm, { message }),
      );
    },
  });

  const removeFile = useMutation({
    mutationFn: (file: ContractFileDto) => deleteContractFile(kind, contract._id, file._id),
    onSuccess: async (data) => {
      setRemoving(null);
      snackbar.success(data?.message || CONTRACTS.fileDeleted);
      await queryClient.invalidateQueries({ queryKey: CONTRACTS_KEY });
    },
    onError: (error) => {
      setRemoving(null);
      snackbar.error(messageOf(error, CONTRACTS.editFailed), DOCUMENT_NOTICE_MS);
    },
  });

  const locked = finished || mutation.isPending;
  return (
    <Box component="form" noValidate onSubmit={handleSubmit((v) => mutation.mutate(v))}>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          {finished && (
            <Alert severity="error" variant="outlined">
              {CONTRACTS.finished}
            </Alert>
          )}
          <FormTextField
            control={control}
            name="naziv"
            label={CONTRACT_LABELS.contractName}
            autoComplete="off"
            required
            disabled={locked}
          />
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
            <FormDateField control={control} name="datumPocetka" label={UI.datumPocetka} required disabled={locked} />
            <FormTextField control={control} name="rokTrajanja" label={UI.rokTrajanja} slotProps={DAYS_SLOT} required disabled={locked} />
            <FormSelect control={control} name="status" label={CONTRACT_LABELS.status} options={STATUS_OPTIONS} disabled={locked} />
            {status === CONTRACTS.statusFinished && (
              <FormDateField control={control} name="datumZavrsetka" label={UI.datumZavrsetka} required disabled={locked} />
            )}
          </Box>
          {status === CONTRACTS.statusFinished && !finished && (
            <Typography variant="body2" color="warning.main">
              {CONTRACT_LABELS.finishedHelp}
            </Typography>
          )}
          {typed && <GroupsPicker control={control} kind={kind} groups={groups} disabled={locked} />}
          <Divider />
          <Typography variant="subtitle2" component="h3">
            {UI.documents}
          </Typography>
          <DocumentList
            kind={kind}
            contractId={contract._id}
            files={contract.fajlovi}
            nameMax={EDIT_NAME_MAX}
            onRemove={setRemoving}
            removeDisabled={locked || removeFile.isPending}
          />
          <DocumentPicker files={files} onChange={setFiles} disabled={locked} />
        </Stack>
      </DialogContent>
      <Actions onCancel={onCancel} busy={mutation.isPending} saveDisabled={finished} saveLabel={CLUSTERS.saveChanges} />
      <ConfirmDialog
        open={!!removing}
        title={CONTRACT_LABELS.removeDocumentConfirm}
        text={removing ? `${removing.originalnoIme}. ${CONTRACT_LABELS.removeDocumentNote}` : undefined}
        busy={removeFile.isPending}
        onConfirm={() => removing && removeFile.mutate(removing)}
        onClose={() => setRemoving(null)}
      />
    </Box>
  );
}

function Centered({ children }: { children: ReactNode }) {
  return <Box sx={{ display: 'flex', justifyContent: 'center', alignItems: 'center', minHeight: 240, p: 3 }}>{children}</Box>;
}

/** A spinner until the contract (edit) and the kind's groups are loaded, then the form. */
function ContractEditor({ kind, contractId, onClose }: { kind: ContractKind; contractId: string | null; onClose: () => void }) {
  const groups = useContractGroupChoices(kind);
  const found = useContractQuery(contractId ?? '', kind, !!contractId);
  const contract = found.data?.contract ?? null;
  const groupOptions = useMemo(() => {
    const options = (groups.data ?? []).map((g) => ({ value: g._id, label: groupLabel(g) }));
    // The contract's own groups stay choices even if the list no longer offers them.
    const known = new Set(options.map((o) => o.value));
    const own = (contract?.grupe ?? []).filter((g) => !known.has(g._id)).map((g) => ({ value: g._id, label: groupLabel(g) }));
    return [...options, ...own];
  }, [groups.data, contract]);

  const typed = CONTRACT_GROUP_TYPE[kind] !== null;
  if ((typed && groups.isPending) || (!!contractId && found.isPending)) {
    return (
      <Centered>
        <CircularProgress aria-label={UI.loading} />
      </Centered>
    );
  }
  if (contractId && (found.isError || !contract)) {
    return (
      <Stack spacing={2} sx={{ p: 3 }}>
        <Alert severity="error">{messageOf(found.error, CONTRACT_LABELS.contractNotFound)}</Alert>
        <Box>
          <Button onClick={onClose}>{CLUSTERS.cancel}</Button>
        </Box>
      </Stack>
    );
  }
  if (contract) return <EditContractForm kind={kind} groups={groupOptions} contract={contract} onSaved={onClose} onCancel={onClose} />;
  return <CreateContractForm kind={kind} groups={groupOptions} onSaved={onClose} onCancel={onClose} />;
}

type Props = {
  open: boolean;
  kind: ContractKind;
  /** The contract to edit, or null for the create modal. */
  contractId: string | null;
  /** Changes with every opening: the form starts afresh (the dialog keeps its content while it fades out). */
  opening: number;
  onClose: () => void;
};

/** The create modal and the edit dialog of a contract (spec 2 §2, §5), 800 px wide. */
export function ContractFormDialog({ open, kind, contractId, opening, onClose }: Props) {
  const titleId = useId();
  return (
    <Dialog
      open={open}
      onClose={onClose}
      aria-labelledby={titleId}
      fullWidth
      maxWidth={false}
      slotProps={{ paper: { sx: { width: '100%', maxWidth: 800 } } }}
    >
      <DialogTitle id={titleId}>{contractId ? CONTRACT_LABELS.editContractTitle : CONTRACT_LABELS.newContractTitle}</DialogTitle>
      <ContractEditor key={opening} kind={kind} contractId={contractId} onClose={onClose} />
    </Dialog>
  );
}

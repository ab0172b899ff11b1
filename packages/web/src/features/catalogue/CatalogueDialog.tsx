import { Box, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type CatalogueEdit, catalogueEditSchema, KLIZNO, ROK_VALUES } from '@trasa/domain';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { type CatalogueEntryDto, editCatalogueEntry } from '../../api/catalogue';
import { fieldErrorOf, messageOf } from '../../api/errors';
import { FormDialog } from '../../components/FormDialog';
import { FormSelect } from '../../components/FormSelect';
import { FormTextField } from '../../components/FormTextField';
import { useSnackbar } from '../../components/SnackbarProvider';
import { zodResolver } from '../../components/validation';
import { CATALOGUE } from '../../messages';
import { inScript } from '../../script';
import { UI } from '../../texts';
import { ACTIVITY_UI, responsibleLabel, rokLabel } from './labels';

export const CATALOGUE_KEY = ['activity-catalogue'] as const;

/** The select's values are strings; the domain schema reads '10' as 10 and keeps 'klizno'. */
type Form = z.input<typeof catalogueEditSchema>;
const FIELDS = ['naziv', 'rok', 'uputstvo', 'dokumenta'] as const;
const ROK_OPTIONS = [...ROK_VALUES.map((d) => ({ value: String(d), label: String(d) })), { value: KLIZNO, label: inScript(KLIZNO) }];

function valuesOf(entry: CatalogueEntryDto | null): Form {
  return {
    naziv: entry?.naziv ?? '',
    rok: entry ? rokLabel(entry.rok) : '',
    uputstvo: entry?.uputstvo ?? '',
    dokumenta: entry?.dokumenta ?? '',
  };
}

type Props = { entry: CatalogueEntryDto | null; onClose: () => void };

/**
 * Edits what the Admin may change in a catalogue entry (spec 3 §2.3; activity-catalogue.md): naziv,
 * rok (5, 7, 8, 10, 15, 28, 30 or klizno), uputstvo and dokumenta. Code, responsible parties and flow
 * are shown, not edited. A new rok applies to activities that start after the change.
 */
export function CatalogueDialog({ entry, onClose }: Props) {
  const snackbar = useSnackbar();
  const queryClient = useQueryClient();
  const { control, handleSubmit, setError, reset } = useForm<Form, unknown, CatalogueEdit>({
    resolver: zodResolver(catalogueEditSchema),
    defaultValues: valuesOf(entry),
  });

  useEffect(() => {
    if (entry) reset(valuesOf(entry));
  }, [entry, reset]);

  const mutation = useMutation({
    mutationFn: (body: CatalogueEdit) => editCatalogueEntry(entry?._id ?? '', body),
    onSuccess: async (data) => {
      snackbar.success(data?.message || CATALOGUE.saved);
      onClose();
      await queryClient.invalidateQueries({ queryKey: CATALOGUE_KEY });
    },
    onError: (error) => {
      snackbar.error(messageOf(error, CATALOGUE.saveFailed));
      for (const field of FIELDS) {
        const text = fieldErrorOf(error, field);
        if (text) setError(field, { message: text });
      }
    },
  });

  return (
    <FormDialog
      open={!!entry}
      title={ACTIVITY_UI.editTitle(entry?.kratakNaziv ?? '')}
      onClose={onClose}
      onSubmit={handleSubmit((v) => mutation.mutate(v))}
      busy={mutation.isPending}
    >
      <Typography variant="body2" color="text.secondary">
        {ACTIVITY_UI.responsible}: {responsibleLabel(entry?.odgovoran ?? []) || UI.empty} · {ACTIVITY_UI.previous}:{' '}
        {entry?.prethodna.join(', ') || UI.empty}
      </Typography>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '3fr 1fr' } }}>
        <FormTextField control={control} name="naziv" label={ACTIVITY_UI.naziv} autoComplete="off" required />
        <FormSelect control={control} name="rok" label={ACTIVITY_UI.rokDays} options={ROK_OPTIONS} />
      </Box>
      <FormTextField control={control} name="dokumenta" label={ACTIVITY_UI.documents} multiline minRows={2} />
      <FormTextField control={control} name="uputstvo" label={ACTIVITY_UI.instructions} multiline minRows={4} />
    </FormDialog>
  );
}

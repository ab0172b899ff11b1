import { Box } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { createGroupSchema, type GroupListItem, isReservedGroupName } from '@trasa/domain';
import { useEffect, useMemo } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { fieldErrorOf, messageOf } from '../../api/errors';
import { createGroup, editGroup } from '../../api/groups';
import { FormDialog } from '../../components/FormDialog';
import { FormOptionPicker } from '../../components/FormOptionPicker';
import { FormSelect } from '../../components/FormSelect';
import { FormSwitch } from '../../components/FormSwitch';
import { FormTextField } from '../../components/FormTextField';
import { useSnackbar } from '../../components/SnackbarProvider';
import { zodResolver } from '../../components/validation';
import { USERS } from '../../messages';
import { GROUPS_KEY, groupOptions, useGroupChoices } from '../../queries/groups';
import { useGroupTypes } from '../../queries/types';
import { USERS_KEY } from '../../queries/users';
import { groupTypeName } from '../../shipped';
import { UI } from '../../texts';

/** The group form: the create schema (nadredjenaId), tip required (spec 1 §5 "Group form"). */
const groupFormSchema = createGroupSchema.refine((v) => !!v.tip, { error: USERS.groupTipRequired, path: ['tip'] });
type GroupForm = z.input<typeof groupFormSchema>;

function valuesOf(group: GroupListItem | null): GroupForm {
  return {
    nadredjenaId: group?.nadredjenaGrupa?._id ?? '',
    naziv: group?.naziv ?? '',
    kratakNaziv: group?.kratakNaziv ?? '',
    tip: group?.tipId ?? '',
    sveVideci: group?.sveVideci ?? false,
  };
}

/** The group and everything below it: none of them can become its parent. */
function selfAndDescendants(groupId: string, groups: readonly GroupListItem[]): Set<string> {
  const out = new Set([groupId]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const g of groups) {
      if (!out.has(g._id) && g.nadredjenaGrupa && out.has(g.nadredjenaGrupa._id)) {
        out.add(g._id);
        grew = true;
      }
    }
  }
  return out;
}

type Props = { open: boolean; group: GroupListItem | null; onClose: () => void };

/**
 * The create- and edit-group modals (spec 1 §2.8): with a parent chosen, the type and 'sees all' are
 * taken from the parent and locked (spec 1 §4). The reserved group 'Admin' is never offered.
 */
export function GroupFormDialog({ open, group, onClose }: Props) {
  const snackbar = useSnackbar();
  const queryClient = useQueryClient();
  const types = useGroupTypes();
  const groups = useGroupChoices();
  const { control, handleSubmit, setError, setValue, watch, reset } = useForm({
    resolver: zodResolver(groupFormSchema),
    defaultValues: valuesOf(group),
  });

  useEffect(() => {
    if (open) reset(valuesOf(group));
  }, [open, group, reset]);

  const parentOptions = useMemo(() => {
    const all = (groups.data ?? []).filter((g) => !isReservedGroupName(g.naziv));
    const excluded = group ? selfAndDescendants(group._id, all) : new Set<string>();
    return groupOptions(all.filter((g) => !excluded.has(g._id)));
  }, [groups.data, group]);
  const typeOptions = useMemo(() => (types.data ?? []).map((t) => ({ value: t._id, label: groupTypeName(t.naziv) })), [types.data]);

  const parentId = watch('nadredjenaId');
  const parent = (groups.data ?? []).find((g) => g._id === parentId);
  useEffect(() => {
    if (!parent) return;
    setValue('tip', parent.tipId ?? '', { shouldValidate: true });
    setValue('sveVideci', parent.sveVideci);
  }, [parent, setValue]);

  const mutation = useMutation({
    mutationFn: (v: z.output<typeof groupFormSchema>) => {
      const body = { naziv: v.naziv, kratakNaziv: v.kratakNaziv, tip: v.tip ?? '', sveVideci: v.sveVideci };
      return group
        ? editGroup(group._id, { ...body, nadredjenaGrupa: v.nadredjenaId ?? '' })
        : createGroup({ ...body, nadredjenaId: v.nadredjenaId ?? '' });
    },
    onSuccess: async () => {
      snackbar.success(group ? USERS.groupEdited : USERS.groupCreated);
      onClose();
      await queryClient.invalidateQueries({ queryKey: GROUPS_KEY });
      await queryClient.invalidateQueries({ queryKey: USERS_KEY });
    },
    onError: (error) => {
      snackbar.error(messageOf(error, group ? USERS.groupEditFailed : USERS.groupCreateFailed));
      for (const field of ['naziv', 'kratakNaziv', 'tip'] as const) {
        const text = fieldErrorOf(error, field);
        if (text) setError(field, { message: text });
      }
      const parentError = fieldErrorOf(error, 'nadredjenaId') ?? fieldErrorOf(error, 'nadredjenaGrupa');
      if (parentError) setError('nadredjenaId', { message: parentError });
    },
  });

  return (
    <FormDialog
      open={open}
      title={group ? UI.editGroupTitle : UI.newGroupTitle}
      onClose={onClose}
      onSubmit={handleSubmit((v) => mutation.mutate(v))}
      busy={mutation.isPending}
    >
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '2fr 1fr' } }}>
        <FormTextField control={control} name="naziv" label={UI.naziv} autoComplete="off" required />
        <FormTextField control={control} name="kratakNaziv" label={UI.kratakNaziv} autoComplete="off" required />
      </Box>
      <FormOptionPicker
        control={control}
        name="nadredjenaId"
        label={UI.parentGroup}
        options={parentOptions}
        loading={groups.isPending}
        helperText={parent ? UI.takenFromParent : undefined}
      />
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, alignItems: 'center' }}>
        <FormSelect control={control} name="tip" label={UI.tip} options={typeOptions} disabled={!!parent} required />
        <FormSwitch control={control} name="sveVideci" label={UI.seesAllLong} disabled={!!parent} />
      </Box>
    </FormDialog>
  );
}

import { Box } from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type InventoryTip, inventoryItemSchema, MONEY_DECIMALS, QUANTITY_DECIMALS } from '@trasa/domain';
import { useEffect, useMemo, useState } from 'react';
import { type Resolver, useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { fieldErrorOf, messageOf } from '../../api/errors';
import {
  createInventoryItem,
  editInventoryItem,
  INV_TIPS,
  INVENTORY_KEY,
  type InventoryItemDto,
  type InventoryLocationDto,
  listInvTypes,
} from '../../api/inventory';
import { AmountTextField } from '../../components/AmountTextField';
import { FormDateField, todayValue } from '../../components/dates';
import { FormDialog } from '../../components/FormDialog';
import { FormSelect } from '../../components/FormSelect';
import { OptionPicker } from '../../components/OptionPicker';
import { useSnackbar } from '../../components/SnackbarProvider';
import { DECIMAL, RSD } from '../../components/units';
import { zodResolver } from '../../components/validation';
import { INVENTORY } from '../../messages';
import { inScript } from '../../script';
import { contractLabel } from '../clusters/format';
import { INV_LABELS } from './labels';
import { INV_TEXT, LOCATION_INVENTORY_NOTICE_MS } from './texts';

type Form = { invType: string; lokacija: string; ugovor: string; kolicina: string; cenaRsd: string; datumPrimopredaje: string };
type Values = z.output<typeof inventoryItemSchema>;

const TIP_OPTIONS = INV_TIPS.map((t) => ({ value: t, label: inScript(t) }));
const FIELDS = ['invType', 'ugovor', 'kolicina', 'cenaRsd', 'datumPrimopredaje'] as const;

/** The form of an item, or of a new one on the location (its first inventory contract chosen). */
function valuesOf(item: InventoryItemDto | null, locationId: string, firstContract: string): Form {
  return {
    invType: item?.invType._id ?? '',
    lokacija: locationId,
    ugovor: item?.ugovor?._id ?? firstContract,
    kolicina: item ? String(item.kolicina) : '',
    cenaRsd: item ? String(item.cenaRsd) : '',
    datumPrimopredaje: item?.datumPrimopredaje ?? todayValue(),
  };
}

type Props = {
  /** Changes with every opening (0: closed). */
  opening: number;
  item: InventoryItemDto | null;
  location: InventoryLocationDto;
  onClose: () => void;
};

/**
 * Add or edit an item of a location's inventory (spec 3 §5): the type (Materijal, Oprema, Radovi) is
 * chosen first, then its entries are loaded; the dinar price starts from the entry's; kolicina and
 * cenaRsd are required.
 */
export function InventoryItemDialog({ opening, item, location, onClose }: Props) {
  const snackbar = useSnackbar();
  const queryClient = useQueryClient();
  const [tip, setTip] = useState<InventoryTip | ''>(item?.invType.tip ?? '');
  const { control, handleSubmit, reset, setError, setValue } = useForm<Form, unknown, Values>({
    resolver: zodResolver(inventoryItemSchema) as Resolver<Form, unknown, Values>,
    defaultValues: valuesOf(item, location._id, location.ugovori[0]?._id ?? ''),
  });
  const invType = useWatch({ control, name: 'invType' });

  const types = useQuery({
    queryKey: [...INVENTORY_KEY, 'types', tip],
    queryFn: ({ signal }) => listInvTypes(tip as InventoryTip, signal),
    enabled: opening > 0 && tip !== '',
  });
  const typeOptions = useMemo(
    () => (types.data ?? []).map((t) => ({ value: t._id, label: `${t.naziv}${t.sifra ? ` (${t.sifra})` : ''}` })),
    [types.data],
  );
  const contractOptions = useMemo(() => location.ugovori.map((u) => ({ value: u._id, label: contractLabel(u) })), [location]);

  const mutation = useMutation({
    mutationFn: (v: Values) => {
      if (item) {
        const { lokacija: _, ...edit } = v;
        return editInventoryItem(item._id, edit);
      }
      return createInventoryItem(v);
    },
    onSuccess: async (data) => {
      snackbar.success(data?.message || (item ? INVENTORY.itemEdited : INVENTORY.itemCreated), LOCATION_INVENTORY_NOTICE_MS);
      await queryClient.invalidateQueries({ queryKey: INVENTORY_KEY });
      onClose();
    },
    onError: (error) => {
      snackbar.error(messageOf(error, INV_TEXT.saveFailed), LOCATION_INVENTORY_NOTICE_MS);
      for (const field of FIELDS) {
        const text = fieldErrorOf(error, field);
        if (text) setError(field, { message: text });
      }
    },
  });
  const { reset: resetMutation } = mutation;

  // A refetched location (after a save, on window focus) must not wipe what is being typed: only its id counts.
  const locationId = location._id;
  const firstContract = location.ugovori[0]?._id ?? '';
  useEffect(() => {
    if (opening > 0) {
      reset(valuesOf(item, locationId, firstContract));
      setTip(item?.invType.tip ?? '');
      resetMutation();
    }
  }, [opening, item, locationId, firstContract, reset, resetMutation]);

  return (
    <FormDialog
      open={opening > 0}
      title={item ? INV_LABELS.editItemTitle : INV_LABELS.newItemTitle}
      onClose={onClose}
      onSubmit={handleSubmit((v) => mutation.mutate(v))}
      busy={mutation.isPending}
    >
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 2fr' } }}>
        <OptionPicker
          label={INV_LABELS.itemType}
          options={TIP_OPTIONS}
          value={tip}
          onChange={(v) => {
            setTip(v as InventoryTip | '');
            setValue('invType', '');
            setValue('cenaRsd', '');
          }}
        />
        <FormSelect
          control={control}
          name="invType"
          label={INV_LABELS.item}
          options={typeOptions}
          disabled={tip === '' || types.isFetching}
          helperText={tip === '' ? INVENTORY.chooseTypeFirst : undefined}
          onValueChange={(id) => {
            const chosen = types.data?.find((t) => t._id === id);
            if (chosen) setValue('cenaRsd', String(chosen.cenaRsd));
          }}
        />
        <AmountTextField
          control={control}
          name="kolicina"
          label={INV_LABELS.kolicina}
          decimals={QUANTITY_DECIMALS}
          unit=""
          slotProps={DECIMAL}
          required
        />
        <AmountTextField
          control={control}
          name="cenaRsd"
          label={INV_LABELS.cenaRsd}
          decimals={MONEY_DECIMALS}
          unit={RSD}
          slotProps={DECIMAL}
          required
          disabled={!invType}
        />
        <FormDateField control={control} name="datumPrimopredaje" label={INV_LABELS.datumPrimopredaje} required />
        <FormSelect control={control} name="ugovor" label={INV_LABELS.ugovor} options={contractOptions} />
      </Box>
    </FormDialog>
  );
}

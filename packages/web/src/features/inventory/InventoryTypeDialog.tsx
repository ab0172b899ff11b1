import { Box } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type InventoryTip, type InventoryValuta, invTypeSchema, MONEY_DECIMALS } from '@trasa/domain';
import { useEffect } from 'react';
import { type Resolver, useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { fieldErrorOf, messageOf } from '../../api/errors';
import { createInvType, editInvType, INV_TIPS, INVENTORY_KEY, type InvTypeDto, VALUTE } from '../../api/inventory';
import { AmountTextField } from '../../components/AmountTextField';
import { FormDialog } from '../../components/FormDialog';
import { FormSelect } from '../../components/FormSelect';
import { FormTextField } from '../../components/FormTextField';
import { useSnackbar } from '../../components/SnackbarProvider';
import { DECIMAL, decimalWithUnit, RSD } from '../../components/units';
import { zodResolver } from '../../components/validation';
import { INVENTORY } from '../../messages';
import { INV_LABELS } from './labels';
import { INV_TEXT } from './texts';

/** Everything is typed as text; the domain schema reads numbers with a comma or a point. */
type Form = {
  naziv: string;
  kratakNaziv: string;
  tip: InventoryTip;
  trajanjeGarancije: string;
  cena: string;
  valuta: InventoryValuta;
  cenaRsd: string;
  sifra: string;
  redniBroj: string;
  jedinica: string;
};
type Values = z.output<typeof invTypeSchema>;

function valuesOf(type: InvTypeDto | null, tip: InventoryTip): Form {
  return {
    naziv: type?.naziv ?? '',
    kratakNaziv: type?.kratakNaziv ?? '',
    tip: type?.tip ?? tip,
    trajanjeGarancije: type?.trajanjeGarancije == null ? '' : String(type.trajanjeGarancije),
    cena: type ? String(type.cena) : '',
    valuta: type?.valuta ?? 'RSD',
    cenaRsd: type ? String(type.cenaRsd) : '',
    sifra: type?.sifra ?? '',
    redniBroj: type?.redniBroj == null ? '' : String(type.redniBroj),
    jedinica: type?.jedinica ?? 'kom',
  };
}

const TIP_OPTIONS = INV_TIPS.map((t) => ({ value: t, label: INV_LABELS.tipLabels[t] ?? t }));
const VALUTA_OPTIONS = VALUTE.map((v) => ({ value: v, label: v }));
const FIELDS = ['naziv', 'kratakNaziv', 'tip', 'trajanjeGarancije', 'cena', 'valuta', 'cenaRsd', 'sifra', 'redniBroj', 'jedinica'] as const;

type Props = {
  /** Changes with every opening (0: closed). */
  opening: number;
  type: InvTypeDto | null;
  tip: InventoryTip;
  onClose: () => void;
};

/**
 * Add or edit an entry of the equipment codebook (spec 3 §3, §5): naziv, cena and cenaRsd required;
 * while the currency is RSD the dinar price follows the price (and is not typed separately).
 */
export function InventoryTypeDialog({ opening, type, tip, onClose }: Props) {
  const snackbar = useSnackbar();
  const queryClient = useQueryClient();
  const { control, handleSubmit, reset, setError, setValue } = useForm<Form, unknown, Values>({
    resolver: zodResolver(invTypeSchema) as Resolver<Form, unknown, Values>,
    defaultValues: valuesOf(type, tip),
  });
  const valuta = useWatch({ control, name: 'valuta' });
  const cena = useWatch({ control, name: 'cena' });

  useEffect(() => {
    if (valuta === 'RSD') setValue('cenaRsd', cena ?? '', { shouldValidate: false });
  }, [valuta, cena, setValue]);

  const mutation = useMutation({
    mutationFn: (v: Values) => (type ? editInvType(type._id, v) : createInvType(v)),
    onSuccess: async (data) => {
      snackbar.success(data?.message || (type ? INVENTORY.typeEdited : INVENTORY.typeCreated));
      await queryClient.invalidateQueries({ queryKey: INVENTORY_KEY });
      onClose();
    },
    onError: (error) => {
      snackbar.error(messageOf(error, INV_TEXT.saveFailed));
      for (const field of FIELDS) {
        const text = fieldErrorOf(error, field);
        if (text) setError(field, { message: text });
      }
    },
  });
  const { reset: resetMutation } = mutation;

  useEffect(() => {
    if (opening > 0) {
      reset(valuesOf(type, tip));
      resetMutation();
    }
  }, [opening, type, tip, reset, resetMutation]);

  return (
    <FormDialog
      open={opening > 0}
      title={type ? INV_LABELS.editTypeTitle : INV_LABELS.newTypeTitle}
      onClose={onClose}
      onSubmit={handleSubmit((v) => mutation.mutate(v))}
      busy={mutation.isPending}
    >
      <FormTextField control={control} name="naziv" label={INV_LABELS.naziv} autoComplete="off" required />
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
        <FormTextField control={control} name="kratakNaziv" label={INV_LABELS.kratakNaziv} autoComplete="off" />
        <FormSelect control={control} name="tip" label={INV_LABELS.tip} options={TIP_OPTIONS} />
        <AmountTextField
          control={control}
          name="cena"
          label={INV_LABELS.cena}
          decimals={MONEY_DECIMALS}
          unit={valuta}
          slotProps={decimalWithUnit(valuta)}
          required
        />
        <FormSelect control={control} name="valuta" label={INV_LABELS.valuta} options={VALUTA_OPTIONS} />
        <AmountTextField
          control={control}
          name="cenaRsd"
          label={INV_LABELS.cenaRsd}
          decimals={MONEY_DECIMALS}
          unit={RSD}
          slotProps={DECIMAL}
          required
          disabled={valuta === 'RSD'}
        />
        <FormTextField
          control={control}
          name="trajanjeGarancije"
          label={INV_LABELS.trajanjeGarancije}
          slotProps={{ htmlInput: { inputMode: 'numeric' } }}
        />
        <FormTextField control={control} name="jedinica" label={INV_LABELS.jedinica} autoComplete="off" />
        <FormTextField control={control} name="sifra" label={INV_LABELS.sifra} autoComplete="off" />
        <FormTextField
          control={control}
          name="redniBroj"
          label={INV_LABELS.redniBroj}
          slotProps={{ htmlInput: { inputMode: 'numeric' } }}
        />
      </Box>
    </FormDialog>
  );
}

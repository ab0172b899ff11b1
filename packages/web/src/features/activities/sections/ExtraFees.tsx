import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import { Box, Button, IconButton, Stack, Tooltip, Typography } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { DATA_KEYS, MONEY_DECIMALS, parseAmount, parseAmountText } from '@trasa/domain';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import type { ActivityDto } from '../../../api/activities';
import { AmountTextField } from '../../../components/AmountTextField';
import { FormTextField } from '../../../components/FormTextField';
import { useSnackbar } from '../../../components/SnackbarProvider';
import { decimalWithUnit, RSD } from '../../../components/units';
import { zodResolver } from '../../../components/validation';
import { ACTIVITIES } from '../../../messages';
import { changeFailedMessage } from '../../../offline/messages';
import { QUEUE_TEXTS } from '../../../offline/texts';
import { formatMoney } from '../../clusters/format';
import { ACTIVITY_LABELS } from '../labels';
import { QUEUED, useSaveData } from '../queries';
import { Block } from './common';

/** An additional fee: naziv 1–50 characters, vrednost a number in RSD (spec 3 §5). */
const feeSchema = z.object({
  naziv: z.string().trim().min(1, ACTIVITIES.feeNameLength).max(50, ACTIVITIES.feeNameLength),
  vrednost: z.string().refine((v) => parseAmountText(v, MONEY_DECIMALS) !== null, ACTIVITIES.mustBeNumber),
});
type FeeForm = z.input<typeof feeSchema>;
type FeeOut = z.output<typeof feeSchema>;

/** The additional fees (DodatnaTaksa, one per naziv): listed in RSD, added by a small form, removed by naziv. */
export function ExtraFees({ activity }: { activity: ActivityDto }) {
  const snackbar = useSnackbar();
  const save = useSaveData(activity);
  const fees = activity.podaci.filter((p) => p.key === DATA_KEYS.extraFee);
  const { control, handleSubmit, reset } = useForm<FeeForm, unknown, FeeOut>({
    resolver: zodResolver(feeSchema),
    defaultValues: { naziv: '', vrednost: '' },
  });
  const add = useMutation({
    // Offline too: the change is then kept on the device (offline/queue.ts), not paused in memory.
    networkMode: 'always',
    mutationFn: (v: FeeOut) => save([{ key: DATA_KEYS.extraFee, naziv: v.naziv, vrednost: v.vrednost }]),
    onSuccess: (answer) => {
      reset({ naziv: '', vrednost: '' });
      if (answer === QUEUED) snackbar.notify(QUEUE_TEXTS.savedOnDevice, 'info');
      else snackbar.success(ACTIVITIES.extraFieldsAdded);
    },
    onError: (error) => {
      console.error('adding the fee failed', error);
      snackbar.error(changeFailedMessage(error, ACTIVITIES.extraFieldsFailed));
    },
  });
  const remove = useMutation({
    // Offline too: the change is then kept on the device (offline/queue.ts), not paused in memory.
    networkMode: 'always',
    mutationFn: (naziv: string) => save([{ key: DATA_KEYS.extraFee, naziv, vrednost: '' }]),
    onSuccess: (answer) =>
      answer === QUEUED ? snackbar.notify(QUEUE_TEXTS.savedOnDevice, 'info') : snackbar.success(ACTIVITIES.dataSaved),
    onError: (error) => {
      console.error('removing the fee failed', error);
      snackbar.error(changeFailedMessage(error, ACTIVITIES.dataSaveFailed));
    },
  });
  return (
    <Block title={ACTIVITY_LABELS.extraFees}>
      {fees.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {ACTIVITY_LABELS.noExtraFees}
        </Typography>
      ) : (
        <Stack component="ul" spacing={0.5} sx={{ m: 0, p: 0, listStyle: 'none' }} aria-label={ACTIVITY_LABELS.extraFees}>
          {fees.map((f) => (
            <Stack component="li" key={f.naziv} direction="row" spacing={1} alignItems="center">
              <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                {f.naziv}: <strong>{formatMoney(parseAmount(f.vrednost))}</strong>
              </Typography>
              <Tooltip title={ACTIVITY_LABELS.removeFee}>
                <IconButton
                  size="small"
                  color="error"
                  aria-label={`${ACTIVITY_LABELS.removeFee}: ${f.naziv}`}
                  disabled={remove.isPending}
                  onClick={() => remove.mutate(f.naziv)}
                >
                  <DeleteIcon fontSize="small" />
                </IconButton>
              </Tooltip>
            </Stack>
          ))}
        </Stack>
      )}
      <Box
        component="form"
        noValidate
        aria-label={ACTIVITY_LABELS.addFee}
        onSubmit={handleSubmit((v) => add.mutate(v))}
        sx={{ display: 'flex', flexDirection: { xs: 'column', sm: 'row' }, gap: 2, alignItems: { xs: 'stretch', sm: 'flex-start' } }}
      >
        <FormTextField
          control={control}
          name="naziv"
          label={ACTIVITY_LABELS.feeName}
          autoComplete="off"
          required
          sx={{ maxWidth: { sm: 280 } }}
        />
        <AmountTextField
          control={control}
          name="vrednost"
          decimals={MONEY_DECIMALS}
          unit={RSD}
          label={ACTIVITY_LABELS.feeValue}
          autoComplete="off"
          required
          slotProps={decimalWithUnit(RSD)}
          sx={{ maxWidth: { sm: 200 } }}
        />
        <Button type="submit" variant="outlined" startIcon={<AddIcon />} disabled={add.isPending} sx={{ mt: { sm: 1 }, flexShrink: 0 }}>
          {ACTIVITY_LABELS.addFee}
        </Button>
      </Box>
    </Block>
  );
}

import { Alert, Box, Button, CircularProgress, DialogActions, DialogContent, Stack } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { METRE_DECIMALS, MONEY_DECIMALS, roleIn } from '@trasa/domain';
import { type ReactNode, useMemo } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { type ClusterBody, createLocation, editLocation, type LocationDto } from '../../api/clusters';
import { fieldErrorOf, messageOf, statusOf } from '../../api/errors';
import type { SettlementDto } from '../../api/settlements';
import { AmountTextField } from '../../components/AmountTextField';
import { FormMultiPicker } from '../../components/FormMultiPicker';
import type { SelectOption } from '../../components/FormSelect';
import { FormSelect } from '../../components/FormSelect';
import { FormTextField } from '../../components/FormTextField';
import { useSnackbar } from '../../components/SnackbarProvider';
import { decimalWithUnit, metres, RSD } from '../../components/units';
import { zodResolver } from '../../components/validation';
import { CLUSTERS, CONTRACTS } from '../../messages';
import { useCurrentUser } from '../../shell/session';
import { UI } from '../../texts';
import { type ClusterFormValues as ClusterForm, type ClusterFormOut, clusterFormSchema } from './clusterFormSchema';
import { contractLabel, groupLabel, settlementLabel } from './format';
import { LOCATION_NOTICE_MS } from './notices';
import { CLUSTERS_KEY, useClusterGroupChoices, useLocationQuery, useOpenContractChoices, useSettlementChoices } from './queries';
import { type SettlementOption, SettlementRows } from './SettlementRows';

/** The create-cluster modal's notices close after 2 s (spec 2 §2 "Create cluster modal"). */
const CREATE_NOTICE_MS = 2000;

const FIELDS = [
  'naziv',
  'ugovor',
  'indikativnaDuzinaKlastera',
  'ugovorenaVrednostKlastera',
  'odgovoran',
  'naselja',
  'usputnaNaselja',
] as const satisfies readonly (keyof ClusterForm)[];

function decimalText(value: number | null | undefined): string {
  return value === null || value === undefined ? '' : String(value);
}

function valuesOf(cluster: LocationDto | null): ClusterForm {
  return {
    naziv: cluster?.naziv ?? '',
    ugovor: cluster?.ugovor?._id ?? '',
    indikativnaDuzinaKlastera: decimalText(cluster?.indikativnaDuzinaKlastera),
    ugovorenaVrednostKlastera: decimalText(cluster?.ugovorenaVrednostKlastera),
    odgovoran: cluster?.odgovoran.map((g) => g._id) ?? [],
    naselja: cluster?.naselja.map((s) => ({ naselje: s._id })) ?? [],
    usputnaNaselja: cluster?.usputnaNaselja.map((s) => ({ naselje: s._id })) ?? [],
  };
}

/** Options of a list plus the cluster's own choices, so a value the list doesn't hold is never dropped. */
function withCurrent<O extends SelectOption>(options: O[], current: O[]): O[] {
  const known = new Set(options.map((o) => o.value));
  return [...options, ...current.filter((o) => !known.has(o.value))];
}

function settlementOption(s: SettlementDto): SettlementOption {
  return { value: s._id, label: settlementLabel(s), maticniBroj: s.maticniBroj };
}

export type ClusterFormVariant = 'dialog' | 'page';

type FormProps = {
  cluster: LocationDto | null;
  variant: ClusterFormVariant;
  onSaved: () => void;
  onCancel: () => void;
  groups: SelectOption[];
  settlements: SettlementOption[];
  contracts: SelectOption[];
  /** Only an Admin chooses the contract (GET /api/contract is theirs). */
  canChooseContract: boolean;
};

function ClusterFormBody({ cluster, variant, onSaved, onCancel, groups, settlements, contracts, canChooseContract }: FormProps) {
  const snackbar = useSnackbar();
  const queryClient = useQueryClient();
  const { control, handleSubmit, setError } = useForm<ClusterForm, unknown, ClusterFormOut>({
    resolver: zodResolver(clusterFormSchema),
    defaultValues: valuesOf(cluster),
  });

  const current = cluster?.ugovor ?? null;
  // A cluster under a finished contract stays under it (the server refuses leaving it): the field is locked.
  const finished = current?.status === CONTRACTS.statusFinished;
  const contractLocked = finished || !canChooseContract;
  const contractOptions = useMemo(
    () => withCurrent(contracts, current ? [{ value: current._id, label: contractLabel(current) }] : []),
    [contracts, current],
  );

  // A settlement is either in the cluster or incidental, never both, and in one row only.
  const naseljaRows = useWatch({ control, name: 'naselja' });
  const usputnaRows = useWatch({ control, name: 'usputnaNaselja' });
  const taken = new Set([...(naseljaRows ?? []), ...(usputnaRows ?? [])].map((row) => row.naselje).filter(Boolean));
  const headingLevel = variant === 'dialog' ? 'h3' : 'h2';

  const mutation = useMutation({
    mutationFn: (v: ClusterFormOut) => {
      const body: ClusterBody = {
        naziv: v.naziv,
        odgovoran: v.odgovoran,
        naselja: v.naselja,
        usputnaNaselja: v.usputnaNaselja,
        // An unchanged contract is always accepted, a finished one too; only an Admin's change counts.
        ugovor: (contractLocked ? current?._id : v.ugovor) || null,
      };
      if (v.indikativnaDuzinaKlastera !== undefined) body.indikativnaDuzinaKlastera = v.indikativnaDuzinaKlastera;
      if (v.ugovorenaVrednostKlastera !== undefined) body.ugovorenaVrednostKlastera = v.ugovorenaVrednostKlastera;
      return cluster ? editLocation(cluster._id, body) : createLocation(body);
    },
    onSuccess: async (data) => {
      snackbar.success(data?.message || (cluster ? CLUSTERS.edited : CLUSTERS.created), cluster ? LOCATION_NOTICE_MS : CREATE_NOTICE_MS);
      await queryClient.invalidateQueries({ queryKey: CLUSTERS_KEY });
      onSaved();
    },
    onError: (error) => {
      snackbar.notify(
        messageOf(error, cluster ? CLUSTERS.editFailed : CLUSTERS.createFailed),
        'warning',
        cluster ? LOCATION_NOTICE_MS : CREATE_NOTICE_MS,
      );
      for (const field of FIELDS) {
        const text = fieldErrorOf(error, field);
        if (text) setError(field, { message: text });
      }
      // 409: a cluster of that name exists.
      if (statusOf(error) === 409 && !fieldErrorOf(error, 'naziv')) setError('naziv', { message: messageOf(error, CLUSTERS.createFailed) });
    },
  });

  const fields = (
    <Stack spacing={2} sx={{ pt: 1 }}>
      <FormTextField control={control} name="naziv" label={UI.clusterName} autoComplete="off" required />
      <FormSelect
        control={control}
        name="ugovor"
        label={UI.contract}
        options={contractOptions}
        emptyLabel={CLUSTERS.chooseContract}
        disabled={contractLocked}
        helperText={finished ? UI.contractFinishedLocked : !canChooseContract ? UI.contractAdminOnly : undefined}
      />
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
        <AmountTextField
          control={control}
          name="indikativnaDuzinaKlastera"
          label={UI.indikativnaDuzina}
          decimals={METRE_DECIMALS}
          unit={metres()}
          autoComplete="off"
          slotProps={decimalWithUnit(metres())}
        />
        <AmountTextField
          control={control}
          name="ugovorenaVrednostKlastera"
          label={UI.ugovorenaVrednost}
          decimals={MONEY_DECIMALS}
          unit={RSD}
          autoComplete="off"
          slotProps={decimalWithUnit(RSD)}
        />
      </Box>
      <FormMultiPicker control={control} name="odgovoran" label={UI.responsibleGroups} options={groups} />
      <SettlementRows
        control={control}
        name="naselja"
        title={UI.settlementsInCluster}
        rowLabel={UI.settlementRow}
        options={settlements}
        taken={taken}
        headingLevel={headingLevel}
      />
      <SettlementRows
        control={control}
        name="usputnaNaselja"
        title={UI.incidentalSettlements}
        rowLabel={UI.incidentalSettlementRow}
        options={settlements}
        taken={taken}
        headingLevel={headingLevel}
      />
    </Stack>
  );
  const buttons = (
    <>
      <Button onClick={onCancel} disabled={mutation.isPending}>
        {CLUSTERS.cancel}
      </Button>
      <Button type="submit" variant="contained" disabled={mutation.isPending}>
        {cluster ? CLUSTERS.saveChanges : UI.save}
      </Button>
    </>
  );

  return (
    <Box component="form" noValidate onSubmit={handleSubmit((v) => mutation.mutate(v))}>
      {variant === 'dialog' ? (
        <>
          <DialogContent>{fields}</DialogContent>
          <DialogActions sx={{ px: 3, pb: 2 }}>{buttons}</DialogActions>
        </>
      ) : (
        <Stack spacing={2}>
          {fields}
          <Stack direction="row" spacing={1} justifyContent="flex-end">
            {buttons}
          </Stack>
        </Stack>
      )}
    </Box>
  );
}

function Centered({ children }: { children: ReactNode }) {
  return <Box sx={{ display: 'flex', justifyContent: 'center', alignItems: 'center', minHeight: 240, p: 3 }}>{children}</Box>;
}

type EditorProps = {
  /** The cluster to edit; empty for a new one. */
  clusterId: string;
  variant: ClusterFormVariant;
  onSaved: () => void;
  onCancel: () => void;
};

/**
 * The create and edit form of a cluster (spec 2 §2): a spinner until the cluster and the lists
 * (groups, settlements, contracts not finished) are loaded, then the form.
 */
export function ClusterEditor({ clusterId, variant, onSaved, onCancel }: EditorProps) {
  const user = useCurrentUser();
  const isAdmin = roleIn(user.rola, ['Admin']);
  const location = useLocationQuery(clusterId, !!clusterId);
  const groups = useClusterGroupChoices();
  const settlements = useSettlementChoices();
  const contracts = useOpenContractChoices(isAdmin);

  const cluster = location.data ?? null;
  const groupOptions = useMemo(
    () =>
      withCurrent(
        (groups.data ?? []).map((g) => ({ value: g._id, label: groupLabel(g) })),
        (cluster?.odgovoran ?? []).map((g) => ({ value: g._id, label: groupLabel(g) })),
      ),
    [groups.data, cluster],
  );
  const settlementOptions = useMemo(
    () =>
      withCurrent(
        (settlements.data ?? []).map(settlementOption),
        [...(cluster?.naselja ?? []), ...(cluster?.usputnaNaselja ?? [])].map(settlementOption),
      ),
    [settlements.data, cluster],
  );
  const contractOptions = useMemo(() => (contracts.data ?? []).map((c) => ({ value: c._id, label: contractLabel(c) })), [contracts.data]);

  const loading = (!!clusterId && location.isPending) || groups.isPending || settlements.isPending || (isAdmin && contracts.isPending);
  if (loading) {
    return (
      <Centered>
        <CircularProgress aria-label={UI.loading} />
      </Centered>
    );
  }
  if (clusterId && location.isError) {
    return (
      <Stack spacing={2} sx={{ p: 3 }}>
        <Alert severity="error">{messageOf(location.error, CLUSTERS.editFailed)}</Alert>
        <Box>
          <Button onClick={onCancel}>{CLUSTERS.cancel}</Button>
        </Box>
      </Stack>
    );
  }
  return (
    <ClusterFormBody
      key={clusterId || 'new'}
      cluster={cluster}
      variant={variant}
      onSaved={onSaved}
      onCancel={onCancel}
      groups={groupOptions}
      settlements={settlementOptions}
      contracts={contractOptions}
      canChooseContract={isAdmin}
    />
  );
}

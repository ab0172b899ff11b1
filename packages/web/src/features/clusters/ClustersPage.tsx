import AddIcon from '@mui/icons-material/Add';
import LinkIcon from '@mui/icons-material/Link';
import { Button, Stack, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { appPath, LIST_SORTS, roleIn } from '@trasa/domain';
import { lazy, useState } from 'react';
import { useNavigate } from 'react-router';
import { deleteLocation, type LocationListItem } from '../../api/clusters';
import { messageOf } from '../../api/errors';
import { ColourLegend } from '../../components/ColourLegend';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DataTable } from '../../components/DataTable';
import { OnceOpened } from '../../components/OnceOpened';
import { DeleteAction, EditAction, RowAction } from '../../components/RowAction';
import { useSnackbar } from '../../components/SnackbarProvider';
import { CLUSTERS } from '../../messages';
import { SETTLEMENTS_KEY } from '../../queries/settlements';
import { SCREEN_TITLES } from '../../shell/screenTitles';
import { useCurrentUser } from '../../shell/session';
import { UI } from '../../texts';
import { ImportButton } from '../imports/ImportButton';
import { CLUSTER_COLUMNS, CLUSTER_PAGE_SIZES, clusterRowColor, fetchLocations } from './clusterColumns';
import { clusterDetailPath, FROM_CLUSTER_LIST } from './clusterLinks';
import { LOCATION_NOTICE_MS } from './notices';
import { CLUSTERS_KEY } from './queries';

/** The form loads when its dialog is first opened (react-hook-form, the pickers; issue 13 item 3). */
const ClusterFormDialog = lazy(async () => ({ default: (await import('./ClusterFormDialog')).ClusterFormDialog }));

/** The form dialog: which cluster (null: a new one), and a counter that gives every opening a fresh form. */
type Dialog = { open: boolean; clusterId: string | null; opening: number };

/**
 * /app/klasteri (spec 2 §2): the visible clusters, coloured by deadline, with search and paging. Admin
 * and Rukovodilac edit; only an Admin creates, deletes and links a cluster to a contract.
 */
export function ClustersPage() {
  const user = useCurrentUser();
  const navigate = useNavigate();
  const snackbar = useSnackbar();
  const queryClient = useQueryClient();
  const isAdmin = roleIn(user.rola, ['Admin']);
  const [dialog, setDialog] = useState<Dialog>({ open: false, clusterId: null, opening: 0 });
  const openForm = (clusterId: string | null) => setDialog((d) => ({ open: true, clusterId, opening: d.opening + 1 }));
  const [deleting, setDeleting] = useState<LocationListItem | null>(null);

  const remove = useMutation({
    mutationFn: (location: LocationListItem) => deleteLocation(location._id),
    onSuccess: async (data) => {
      setDeleting(null);
      snackbar.success(data?.message || CLUSTERS.deleted, LOCATION_NOTICE_MS);
      await queryClient.invalidateQueries({ queryKey: CLUSTERS_KEY });
    },
    onError: (error) => {
      setDeleting(null);
      snackbar.error(messageOf(error, CLUSTERS.deleteFailed), LOCATION_NOTICE_MS);
    },
  });

  const openDetails = (location: LocationListItem) => navigate(clusterDetailPath(location._id), { state: FROM_CLUSTER_LIST });

  return (
    <Stack spacing={2}>
      <Typography variant="h1">{SCREEN_TITLES.clusters}</Typography>
      <DataTable
        tableName="klasteri"
        label={SCREEN_TITLES.clusters}
        columns={CLUSTER_COLUMNS}
        queryKey={[...CLUSTERS_KEY, 'list']}
        fetchPage={fetchLocations}
        sortable={LIST_SORTS.clusters}
        pageSizes={CLUSTER_PAGE_SIZES}
        searchable
        rowColor={clusterRowColor}
        onRowClick={openDetails}
        actionsWidth={isAdmin ? 140 : 70}
        renderRowActions={(location) => (
          <>
            <EditAction of={location.naziv} onClick={() => openForm(location._id)} />
            {isAdmin && (
              <>
                <RowAction
                  label={UI.linkToContract}
                  name={`${UI.linkToContract}: ${location.naziv}`}
                  icon={LinkIcon}
                  onClick={() => navigate(appPath('clusterLinkContract', { id: location._id }))}
                />
                <DeleteAction of={location.naziv} onClick={() => setDeleting(location)} />
              </>
            )}
          </>
        )}
        toolbar={
          isAdmin && (
            <>
              <Button variant="contained" startIcon={<AddIcon />} onClick={() => openForm(null)}>
                {UI.createCluster}
              </Button>
              <ImportButton
                model="location"
                template="klasteri"
                invalidates={[CLUSTERS_KEY, SETTLEMENTS_KEY]}
                noticeMs={LOCATION_NOTICE_MS}
              />
            </>
          )
        }
      />
      <ColourLegend />
      <OnceOpened open={dialog.open}>
        <ClusterFormDialog
          open={dialog.open}
          clusterId={dialog.clusterId}
          opening={dialog.opening}
          onClose={() => setDialog((d) => ({ ...d, open: false }))}
        />
      </OnceOpened>
      <ConfirmDialog
        open={!!deleting}
        title={CLUSTERS.deleteConfirm}
        text={CLUSTERS.deleteNote}
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onClose={() => setDeleting(null)}
      />
    </Stack>
  );
}

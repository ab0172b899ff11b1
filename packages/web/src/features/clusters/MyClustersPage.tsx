import { Stack, Typography } from '@mui/material';
import { appPath, LIST_SORTS } from '@trasa/domain';
import { useNavigate, useParams } from 'react-router';
import type { LocationListItem } from '../../api/clusters';
import { ColourLegend } from '../../components/ColourLegend';
import { DataTable } from '../../components/DataTable';
import { SCREEN_TITLES } from '../../shell/screenTitles';
import { ClusterView } from './ClusterView';
import { CLUSTER_COLUMNS, CLUSTER_PAGE_SIZES, clusterRowColor, fetchLocations } from './clusterColumns';
import { CLUSTERS_KEY } from './queries';

/** /app/klasteri-user (spec 2 §2): the clusters the user's group sees, read-only, coloured by deadline. */
export function MyClustersPage() {
  const navigate = useNavigate();
  const open = (location: LocationListItem) => navigate(appPath('myCluster', { id: location._id }));
  return (
    <Stack spacing={2}>
      <Typography variant="h1">{SCREEN_TITLES.myClusters}</Typography>
      <DataTable
        tableName="klasteri-korisnika"
        label={SCREEN_TITLES.myClusters}
        columns={CLUSTER_COLUMNS}
        queryKey={[...CLUSTERS_KEY, 'mine']}
        fetchPage={fetchLocations}
        sortable={LIST_SORTS.clusters}
        pageSizes={CLUSTER_PAGE_SIZES}
        searchable
        rowColor={clusterRowColor}
        onRowClick={open}
      />
      <ColourLegend />
    </Stack>
  );
}

/** /app/klasteri-user/{id}: one of the user's clusters, its data and its activities. */
export function MyClusterPage() {
  const { id = '' } = useParams();
  return <ClusterView key={id} id={id} backTo={appPath('myClusters')} cardOpen />;
}

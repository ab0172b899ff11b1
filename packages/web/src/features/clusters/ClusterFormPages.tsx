import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { Button, Paper, Stack, Typography } from '@mui/material';
import { appPath } from '@trasa/domain';
import { Link as RouterLink, useNavigate, useParams } from 'react-router';
import { CLUSTERS } from '../../messages';
import { UI } from '../../texts';
import { ClusterEditor } from './ClusterForm';

function ClusterFormPage({ title, clusterId }: { title: string; clusterId: string }) {
  const navigate = useNavigate();
  const toList = () => navigate(appPath('clusters'));
  return (
    <Stack spacing={2} sx={{ maxWidth: 800 }}>
      <Stack direction="row" alignItems="center" spacing={2} flexWrap="wrap" useFlexGap>
        <Button component={RouterLink} to={appPath('clusters')} startIcon={<ArrowBackIcon />}>
          {UI.back}
        </Button>
        <Typography variant="h1">{title}</Typography>
      </Stack>
      <Paper sx={{ p: 3 }}>
        <ClusterEditor clusterId={clusterId} variant="page" onSaved={toList} onCancel={toList} />
      </Paper>
    </Stack>
  );
}

/** /app/novi-klaster: the create form as a page. */
export function ClusterNewPage() {
  return <ClusterFormPage title={UI.newClusterTitle} clusterId="" />;
}

/** /app/izmeni-klaster/{id}: the edit form as a page. */
export function ClusterEditPage() {
  const { id = '' } = useParams();
  return <ClusterFormPage key={id} title={CLUSTERS.editTitle} clusterId={id} />;
}

import { appPath } from '@trasa/domain';
import { Navigate, useParams } from 'react-router';
import { ClusterView } from './ClusterView';
import { useCameFromClusterList } from './clusterLinks';

/** /app/klaster/{id} (spec 2 §2): reachable only from the cluster list, otherwise back to /app/klasteri. */
export function ClusterPage() {
  const fromList = useCameFromClusterList();
  const { id = '' } = useParams();
  if (!fromList || !id) return <Navigate to={appPath('clusters')} replace />;
  return <ClusterView key={id} id={id} backTo={appPath('clusters')} />;
}

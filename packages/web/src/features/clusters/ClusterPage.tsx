import { appPath } from '@trasa/domain';
import { useParams } from 'react-router';
import { ClusterView } from './ClusterView';

/**
 * /app/klaster/{id} (spec 2 §2): the cluster loaded by its id from the server, however it was opened —
 * from the list, a contract, or a shared link (issue 13: a direct URL no longer goes back to the list);
 * an id the user doesn't see is the not-found page.
 */
export function ClusterPage() {
  const { id = '' } = useParams();
  return <ClusterView key={id} id={id} backTo={appPath('clusters')} />;
}

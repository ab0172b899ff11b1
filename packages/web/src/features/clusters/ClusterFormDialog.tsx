import { Dialog, DialogTitle } from '@mui/material';
import { useId } from 'react';
import { CLUSTERS } from '../../messages';
import { UI } from '../../texts';
import { ClusterEditor } from './ClusterForm';

type Props = {
  open: boolean;
  /** The cluster to edit, or null for the create modal. */
  clusterId: string | null;
  /** Changes with every opening: the form starts afresh (the dialog keeps its content while it fades out). */
  opening: number;
  onClose: () => void;
};

/** The create modal and the edit dialog 'Измена кластера' (spec 2 §2), 800 px wide. */
export function ClusterFormDialog({ open, clusterId, opening, onClose }: Props) {
  const titleId = useId();
  return (
    <Dialog
      open={open}
      onClose={onClose}
      aria-labelledby={titleId}
      fullWidth
      maxWidth={false}
      slotProps={{ paper: { sx: { width: '100%', maxWidth: 800 } } }}
    >
      <DialogTitle id={titleId}>{clusterId ? CLUSTERS.editTitle : UI.newClusterTitle}</DialogTitle>
      <ClusterEditor key={opening} clusterId={clusterId ?? ''} variant="dialog" onSaved={onClose} onCancel={onClose} />
    </Dialog>
  );
}

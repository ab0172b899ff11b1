import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import { Button, IconButton, Tooltip } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { deleteTopic, type TopicDto } from '../../api/topics';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useSnackbar } from '../../components/SnackbarProvider';
import { TOPICS } from '../../messages';
import { UI } from '../../texts';
import { type TopicLock, topicLock } from './format';
import { TOPICS_KEY } from './queries';

const LOCK_TEXTS: Record<TopicLock, string> = {
  closed: TOPICS.closedCannotChange,
  commented: TOPICS.commentedCannotChange,
};

/** The tooltip of a disabled edit or delete button (spec 2 §2), or null when the topic can change. */
export function lockText(topic: TopicDto): string | null {
  const lock = topicLock(topic);
  return lock ? LOCK_TEXTS[lock] : null;
}

type ButtonProps = {
  topic: TopicDto;
  label: string;
  icon: ReactNode;
  onClick: () => void;
  /** Icon buttons in a table row, labelled buttons on the detail. */
  compact: boolean;
  color?: 'primary' | 'error';
};

/** An edit or delete button: disabled, with the reason as its tooltip, for a closed or commented topic. */
function LockableButton({ topic, label, icon, onClick, compact, color = 'primary' }: ButtonProps) {
  const reason = lockText(topic);
  const name = compact ? `${label}: ${topic.nazivKlastera}` : label;
  const button = compact ? (
    <IconButton size="small" color={color} aria-label={name} disabled={!!reason} onClick={onClick}>
      {icon}
    </IconButton>
  ) : (
    <Button variant="outlined" color={color} startIcon={icon} disabled={!!reason} onClick={onClick}>
      {label}
    </Button>
  );
  return (
    <Tooltip title={reason ?? label}>
      {/* A disabled button gets no pointer events: the tooltip hangs on the wrapper. */}
      <span>{button}</span>
    </Tooltip>
  );
}

type Props = { topic: TopicDto; onEdit: () => void; onDelete: () => void; compact?: boolean };

/**
 * Edit and delete, each shown only to whom the server grants it (`dozvole`: the Admin and the author's
 * group); a shown button is disabled with the spec's tooltip while the topic is closed or commented.
 */
export function TopicEditDeleteButtons({ topic, onEdit, onDelete, compact = false }: Props) {
  const size = compact ? 'small' : 'medium';
  return (
    <>
      {topic.dozvole.izmena && (
        <LockableButton topic={topic} label={UI.edit} icon={<EditIcon fontSize={size} />} onClick={onEdit} compact={compact} />
      )}
      {topic.dozvole.brisanje && (
        <LockableButton
          topic={topic}
          label={UI.delete}
          icon={<DeleteIcon fontSize={size} />}
          onClick={onDelete}
          compact={compact}
          color="error"
        />
      )}
    </>
  );
}

type DeleteProps = {
  /** The topic to delete; null keeps the dialog closed. */
  topic: TopicDto | null;
  onClose: () => void;
  onDeleted?: () => void;
};

/**
 * 'Обриши тему?' (spec 2 §2). The server's message shows on success; a failure is only logged (spec 2 §8)
 * and the lists reload, so a topic commented or closed meanwhile shows its locked buttons.
 */
export function DeleteTopicDialog({ topic, onClose, onDeleted }: DeleteProps) {
  const snackbar = useSnackbar();
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: (t: TopicDto) => deleteTopic(t._id),
    onSuccess: async (data, deleted) => {
      if (data?.message) snackbar.success(data.message);
      onClose();
      onDeleted?.();
      queryClient.removeQueries({ queryKey: [...TOPICS_KEY, 'single', deleted._id] });
      await queryClient.invalidateQueries({ queryKey: TOPICS_KEY });
    },
    onError: async (error) => {
      console.error('deleting the topic failed', error);
      onClose();
      await queryClient.invalidateQueries({ queryKey: TOPICS_KEY });
    },
  });
  return (
    <ConfirmDialog
      open={!!topic}
      title={TOPICS.deleteConfirm}
      busy={remove.isPending}
      onConfirm={() => topic && remove.mutate(topic)}
      onClose={onClose}
    />
  );
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ContractKind } from '@trasa/domain';
import { useEffect, useState } from 'react';
import { type ContractListItem, deleteContract } from '../../api/contracts';
import { messageOf } from '../../api/errors';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { SNACKBAR_DEFAULT_MS, useSnackbar } from '../../components/SnackbarProvider';
import { CLUSTERS, CONTRACTS } from '../../messages';
import { contractLabel } from '../clusters/format';
import { CLUSTERS_KEY } from '../clusters/queries';
import { CONTRACT_LABELS } from './labels';
import { CONTRACTS_KEY } from './queries';

type Props = {
  kind: ContractKind;
  /** The contract to delete; null: closed. */
  contract: ContractListItem | null;
  onClose: () => void;
};

/**
 * Deleting a contract asks first ('Да ли сте сигурни?'); the answer shows as a notice and the dialog
 * closes 2 s after it (spec 2 §8).
 */
export function DeleteContractDialog({ kind, contract, onClose }: Props) {
  const snackbar = useSnackbar();
  const queryClient = useQueryClient();
  const [answered, setAnswered] = useState(false);

  const remove = useMutation({
    mutationFn: (c: ContractListItem) => deleteContract(kind, c._id),
    onSuccess: async (data) => {
      setAnswered(true);
      snackbar.success(data?.message || CONTRACTS.deleted);
      await queryClient.invalidateQueries({ queryKey: CONTRACTS_KEY });
      await queryClient.invalidateQueries({ queryKey: CLUSTERS_KEY });
    },
    onError: (error) => {
      setAnswered(true);
      snackbar.error(messageOf(error, CONTRACTS.deleteFailed));
    },
  });

  useEffect(() => {
    if (!answered) return;
    const timer = setTimeout(() => {
      setAnswered(false);
      remove.reset();
      onClose();
    }, SNACKBAR_DEFAULT_MS);
    return () => clearTimeout(timer);
  }, [answered, onClose, remove.reset]);

  return (
    <ConfirmDialog
      open={!!contract}
      title={CLUSTERS.deleteConfirm}
      text={contract ? `${contractLabel(contract)}. ${CONTRACT_LABELS.deleteNote}` : undefined}
      busy={remove.isPending || answered}
      onConfirm={() => contract && remove.mutate(contract)}
      onClose={onClose}
    />
  );
}

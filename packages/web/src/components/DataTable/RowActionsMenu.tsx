import MoreVertIcon from '@mui/icons-material/MoreVert';
import type { ReactNode } from 'react';
import { PopoverButton } from './PopoverButton';

/** A row's buttons behind one 'Акције реда' button on phones, so they are reachable without scrolling sideways. */
export function RowActionsMenu({ label, children }: { label: string; children: ReactNode }) {
  return (
    <PopoverButton label={label} icon={MoreVertIcon} kind="group">
      {children}
    </PopoverButton>
  );
}

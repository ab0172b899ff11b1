import type { SvgIconComponent } from '@mui/icons-material';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import type { ReactNode } from 'react';
import './dataTable.css';
import { UI } from '../texts';
import { PlainIcon } from './PlainIcon';

type RowActionProps = {
  /** The button's short name, shown as its tooltip ('Измени'). */
  label: string;
  /** Its accessible name when it should say more than the tooltip ('Измени: Петар Петровић'); default: label. */
  name?: string;
  icon: SvgIconComponent;
  onClick: () => void;
  color?: 'default' | 'error' | 'primary' | 'success';
  disabled?: boolean;
  /** Drawn instead of the icon while it is set (e.g. a progress circle while the row's upload runs). */
  busy?: ReactNode;
};

/**
 * A button of a list's row (DataTable's renderRowActions; issue 13 item 3): MUI's small IconButton and its
 * tooltip as a plain `<button>` styled once (dataTable.css) and a `data-tip` the one tooltip of the
 * application shows (TipHost). A disabled one keeps its tooltip on a wrapper.
 */
export function RowAction({ label, name, icon, onClick, color = 'default', disabled, busy }: RowActionProps) {
  const className = color === 'default' ? 'dt-action' : `dt-action dt-action-${color}`;
  const button = (
    <button
      type="button"
      className={className}
      aria-label={name ?? label}
      data-tip={disabled ? undefined : label}
      disabled={disabled}
      onClick={onClick}
    >
      {busy ?? <PlainIcon icon={icon} />}
    </button>
  );
  return disabled ? (
    <span data-tip={label} style={{ display: 'inline-flex' }}>
      {button}
    </span>
  ) : (
    button
  );
}

type NamedActionProps = {
  /** What the row is ('Петар Петровић'): the button's accessible name is 'Измени: Петар Петровић'. */
  of: string;
  onClick: () => void;
  disabled?: boolean;
};

/** A row's 'Измени' button (the lists' pencil). */
export function EditAction({ of, onClick, disabled }: NamedActionProps) {
  return <RowAction label={UI.edit} name={`${UI.edit}: ${of}`} icon={EditIcon} onClick={onClick} disabled={disabled} />;
}

/** A row's 'Обриши' button (the lists' bin, in the error colour). */
export function DeleteAction({ of, onClick, disabled }: NamedActionProps) {
  return <RowAction label={UI.delete} name={`${UI.delete}: ${of}`} icon={DeleteIcon} color="error" onClick={onClick} disabled={disabled} />;
}

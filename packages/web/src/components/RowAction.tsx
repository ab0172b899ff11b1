import type { SvgIconComponent } from '@mui/icons-material';
import './dataTable.css';
import { PlainIcon } from './PlainIcon';

type RowActionProps = {
  /** The button's short name, shown as its tooltip ('Измени'). */
  label: string;
  /** Its accessible name when it should say more than the tooltip ('Измени: Петар Петровић'); default: label. */
  name?: string;
  icon: SvgIconComponent;
  onClick: () => void;
  color?: 'default' | 'error' | 'primary';
  disabled?: boolean;
};

/**
 * A button of a list's row (DataTable's renderRowActions; issue 13 item 3): MUI's small IconButton and its
 * tooltip as a plain `<button>` styled once (dataTable.css) and a `data-tip` the one tooltip of the
 * application shows (TipHost). A disabled one keeps its tooltip on a wrapper.
 */
export function RowAction({ label, name, icon, onClick, color = 'default', disabled }: RowActionProps) {
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
      <PlainIcon icon={icon} />
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

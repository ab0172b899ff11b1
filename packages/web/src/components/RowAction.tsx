import type { SvgIconComponent } from '@mui/icons-material';
import { isValidElement, type ReactNode } from 'react';
import './dataTable.css';

const paths = new WeakMap<SvgIconComponent, ReactNode | null>();

/**
 * The drawing of one of MUI's icons (`createSvgIcon(path)`: a memo of a forwardRef that renders SvgIcon
 * with the path), read once per icon, so that a row's button draws a plain `<svg>` instead of an SvgIcon
 * styled per instance. null when the icon is built otherwise: the button then renders the icon itself.
 */
export function iconPathOf(Icon: SvgIconComponent): ReactNode | null {
  const known = paths.get(Icon);
  if (known !== undefined) return known;
  let path: ReactNode | null = null;
  try {
    const render = (Icon as unknown as { type?: { render?: (props: object, ref: null) => unknown } }).type?.render;
    const drawn = render?.({}, null);
    if (isValidElement<{ children?: ReactNode }>(drawn) && drawn.props.children) path = drawn.props.children;
  } catch {
    path = null;
  }
  paths.set(Icon, path);
  return path;
}

/** A small icon the size of MUI's `fontSize="small"`, drawn as a plain `<svg>`. */
export function PlainIcon({ icon: Icon }: { icon: SvgIconComponent }) {
  const path = iconPathOf(Icon);
  if (path === null) return <Icon fontSize="small" />;
  return (
    <svg className="dt-icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      {path}
    </svg>
  );
}

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

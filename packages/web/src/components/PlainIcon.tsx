import type { SvgIconComponent } from '@mui/icons-material';
import { type CSSProperties, isValidElement, type ReactNode } from 'react';

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

/** SvgIcon's own styles, once for every plain icon. */
const ICON: CSSProperties = {
  userSelect: 'none',
  width: '1em',
  height: '1em',
  display: 'inline-block',
  flexShrink: 0,
  fill: 'currentColor',
};
const SIZES = {
  small: { ...ICON, fontSize: '1.25rem' },
  medium: { ...ICON, fontSize: '1.5rem' },
  /** TableSortLabel's arrow. */
  sort: { ...ICON, fontSize: '18px' },
} satisfies Record<string, CSSProperties>;

/** One of MUI's icons at MUI's `fontSize` small (20 px) or medium (24 px), or a sort arrow's 18 px, drawn as a plain `<svg>`. */
export function PlainIcon({ icon: Icon, size = 'small' }: { icon: SvgIconComponent; size?: 'small' | 'medium' | 'sort' }) {
  const path = iconPathOf(Icon);
  if (path === null) return <Icon fontSize={size === 'sort' ? 'small' : size} />;
  return (
    <svg style={SIZES[size]} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      {path}
    </svg>
  );
}

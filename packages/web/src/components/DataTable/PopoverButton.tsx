import type { SvgIconComponent } from '@mui/icons-material';
import { Box, Popover, type SxProps, type Theme } from '@mui/material';
import { type ReactNode, useId, useState } from 'react';
import { PlainIcon } from '../PlainIcon';

type PopoverButtonProps = {
  /** The button's name, its tooltip (tip) and the panel's name. */
  label: string;
  icon: SvgIconComponent;
  /** dialog: a panel of controls; group: a few buttons (the panel closes when one of them is clicked). */
  kind: 'dialog' | 'group';
  /** Shows the button's name as a tooltip too. */
  tip?: boolean;
  paperSx?: SxProps<Theme>;
  children: ReactNode;
};

/**
 * An icon button that opens a panel under it (the column chooser, the phones' row menu): the button says
 * what it opens (aria-haspopup, aria-expanded, aria-controls), the panel is named after the button,
 * Escape or a click outside closes it and focus goes back to the button.
 */
export function PopoverButton({ label, icon, kind, tip, paperSx, children }: PopoverButtonProps) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const id = useId();
  const close = () => setAnchor(null);
  return (
    <>
      <button
        type="button"
        className="dt-action dt-tool"
        aria-label={label}
        data-tip={tip ? label : undefined}
        aria-haspopup={kind === 'dialog' ? 'dialog' : 'true'}
        aria-expanded={!!anchor}
        aria-controls={anchor ? id : undefined}
        onClick={(e) => setAnchor(e.currentTarget)}
      >
        <PlainIcon icon={icon} size="medium" />
      </button>
      <Popover
        id={id}
        open={!!anchor}
        anchorEl={anchor}
        onClose={close}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { role: kind, 'aria-label': label, sx: paperSx } }}
      >
        {kind === 'group' ? (
          // A button that opens a dialog or leaves the page closes the menu with it.
          <Box sx={{ display: 'flex', gap: 0.5, p: 0.5 }} onClick={close}>
            {children}
          </Box>
        ) : (
          children
        )}
      </Popover>
    </>
  );
}

/**
 * An icon button with its name as a tooltip (the application's one tooltip, TipHost); the tooltip sits on
 * a wrapper, which keeps it for a disabled button too.
 */
export function ToolButton({
  label,
  disabled,
  onClick,
  icon,
}: {
  label: string;
  disabled?: boolean;
  onClick: () => void;
  icon: SvgIconComponent;
}) {
  return (
    <span data-tip={label} className="dt-tip-wrap">
      <button type="button" className="dt-action dt-tool" aria-label={label} disabled={disabled} onClick={onClick}>
        <PlainIcon icon={icon} size="medium" />
      </button>
    </span>
  );
}

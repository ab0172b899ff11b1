import { Tooltip } from '@mui/material';
import { useEffect, useState } from 'react';

/**
 * One tooltip for the whole application (issue 13 item 3): an element with `data-tip="…"` (and
 * optionally `data-tip-placement="right"`) shows its text in MUI's tooltip when the mouse rests on it or
 * the keyboard focuses it, as MUI's Tooltip would, without a Tooltip instance per button (a table's rows,
 * its toolbar, the menu's rail). The element keeps its own accessible name (aria-label); the tooltip is
 * its visible twin. A disabled button takes the attribute on a wrapper (disabled buttons get no mouse
 * events). Escape hides it.
 */
const ENTER_DELAY_MS = 100;
type Placement = 'top' | 'bottom' | 'right' | 'left';
type Tip = { el: HTMLElement; text: string; placement: Placement };

function tipOf(target: EventTarget | null): Tip | null {
  const el = target instanceof Element ? target.closest<HTMLElement>('[data-tip]') : null;
  const text = el?.dataset.tip;
  if (!el || !text) return null;
  const placement = el.dataset.tipPlacement;
  return { el, text, placement: placement === 'top' || placement === 'right' || placement === 'left' ? placement : 'bottom' };
}

export function TipHost() {
  const [tip, setTip] = useState<Tip | null>(null);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let current: HTMLElement | null = null;
    const show = (next: Tip | null, delay: number) => {
      // Moving within the same element (onto its icon) keeps its tooltip, shown or due.
      if ((next?.el ?? null) === current) return;
      clearTimeout(timer);
      current = next?.el ?? null;
      if (!next) {
        setTip(null);
        return;
      }
      timer = setTimeout(() => setTip(next), delay);
    };
    const over = (e: MouseEvent) => show(tipOf(e.target), ENTER_DELAY_MS);
    const focusIn = (e: FocusEvent) => {
      // As MUI's Tooltip: keyboard focus shows it, a click's focus does not.
      const target = e.target instanceof Element ? e.target : null;
      if (target?.matches(':focus-visible')) show(tipOf(target), ENTER_DELAY_MS);
    };
    const leave = (e: MouseEvent | FocusEvent) => {
      if (current && !(e.relatedTarget instanceof Node && current.contains(e.relatedTarget))) show(null, 0);
    };
    const key = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && current) show(null, 0);
    };
    const press = () => show(null, 0);
    document.addEventListener('mouseover', over);
    document.addEventListener('mouseout', leave);
    document.addEventListener('focusin', focusIn);
    document.addEventListener('focusout', leave);
    document.addEventListener('keydown', key);
    document.addEventListener('pointerdown', press);
    return () => {
      clearTimeout(timer);
      document.removeEventListener('mouseover', over);
      document.removeEventListener('mouseout', leave);
      document.removeEventListener('focusin', focusIn);
      document.removeEventListener('focusout', leave);
      document.removeEventListener('keydown', key);
      document.removeEventListener('pointerdown', press);
    };
  }, []);
  if (!tip?.el.isConnected) return null;
  return (
    <Tooltip open title={tip.text} placement={tip.placement} slotProps={{ popper: { anchorEl: tip.el } }}>
      <span hidden />
    </Tooltip>
  );
}

import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useEffect, useId, useRef, useState } from 'react';
import { SHARED } from './sharedTexts';

/**
 * Every dialog of the app (issue 13 items 4 and 6), whichever feature opens it:
 * - it focuses its first field once the field is there, so the first keystrokes are not lost;
 * - once something was typed or chosen in it, closing it (Escape, a click outside, 'Одустани') asks
 *   first, and closes it the same way only when the user discards the changes.
 * - when it closes and focus is left on nothing, focus goes back to what had it before the dialog opened
 *   (the button that opened it), so a keyboard user goes on where they were (WCAG 2.4.3).
 * The guard listens on the document before React does, so the features' dialogs need no changes.
 */

const DIALOG = '.MuiDialog-root';
/** The words of a dialog's cancel button (one word across dialogs: spec's 'Одустани'), in either script. */
const CANCEL_WORDS = new Set(['Одустани', 'Odustani', 'Откажи', 'Otkaži']);
const FIELD = [
  'input:not([type="hidden"]):not([disabled]):not([readonly]):not([tabindex="-1"]):not([aria-hidden="true"])',
  'textarea:not([disabled]):not([readonly])',
  'select:not([disabled])',
  '[role="combobox"]:not([aria-disabled="true"]):not(input)',
].join(', ');
/** How long a dialog's fields may take to load before it stops waiting to focus the first one. */
const FOCUS_WAIT_MS = 4000;

const changed = new WeakSet<Element>();
const released = new WeakSet<Element>();
const focused = new WeakSet<Element>();
/** What had focus before each dialog took it: focus returns there when the dialog leaves it on nothing. */
const openers = new WeakMap<Element, HTMLElement>();
/** The last element that had focus (the page's, or another dialog's under a new one). */
let lastFocused: HTMLElement | null = null;

function isShown(dialog: Element): boolean {
  return dialog.isConnected && !dialog.classList.contains('MuiModal-hidden');
}

/** Focus back on the dialog's opener, once the dialog is gone and focus fell to the page itself. */
function returnFocus(dialog: Element) {
  const opener = openers.get(dialog);
  if (!opener) return;
  const tryReturn = (attempts: number) => {
    const active = document.activeElement;
    const lost = !active || active === document.body;
    if (isShown(dialog)) {
      // Closing runs a transition: look again until the dialog is gone (or something else took focus).
      if (attempts > 0 && (lost || dialog.contains(active))) window.setTimeout(() => tryReturn(attempts - 1), 50);
      return;
    }
    openers.delete(dialog);
    const openersDialog = opener.closest(DIALOG);
    if (lost && opener.isConnected && (!openersDialog || isShown(openersDialog))) opener.focus();
  };
  window.setTimeout(() => tryReturn(20), 0);
}

function openDialogs(): Element[] {
  return [...document.querySelectorAll(DIALOG)].filter((d) => !d.classList.contains('MuiModal-hidden'));
}

function topDialog(): Element | null {
  return openDialogs().at(-1) ?? null;
}

function dialogOf(target: EventTarget | null): Element | null {
  return target instanceof Element ? target.closest(DIALOG) : null;
}

function needsAsking(dialog: Element | null): dialog is Element {
  return !!dialog && changed.has(dialog) && !released.has(dialog) && dialog === topDialog();
}

function firstField(dialog: Element): HTMLElement | null {
  const content = dialog.querySelector('.MuiDialogContent-root') ?? dialog.querySelector('[role="dialog"]') ?? dialog;
  for (const el of content.querySelectorAll<HTMLElement>(FIELD)) {
    if (el.getClientRects().length > 0) return el;
  }
  return null;
}

/** Focus sits on the dialog itself (where MUI puts it), not on anything the user chose. */
function focusOnFrame(dialog: Element): boolean {
  const active = document.activeElement;
  if (!active || active === document.body) return true;
  return dialog.contains(active) && (active.classList.contains('MuiDialog-container') || active.getAttribute('role') === 'dialog');
}

function focusFirstField(dialog: Element) {
  if (focused.has(dialog)) return;
  focused.add(dialog);
  const now = firstField(dialog);
  if (now) {
    now.focus();
    return;
  }
  // The fields come with the dialog's data: wait for them, unless the user moves on first.
  const observer = new MutationObserver(() => {
    if (!dialog.isConnected || !focusOnFrame(dialog)) return stop();
    const field = firstField(dialog);
    if (field) {
      field.focus();
      stop();
    }
  });
  const timer = window.setTimeout(() => stop(), FOCUS_WAIT_MS);
  function stop() {
    observer.disconnect();
    window.clearTimeout(timer);
  }
  observer.observe(dialog, { childList: true, subtree: true, attributes: true, attributeFilter: ['disabled', 'readonly'] });
}

export function DialogGuard() {
  const [asking, setAsking] = useState(false);
  const pending = useRef<(() => void) | null>(null);
  const confirmed = useRef(false);
  const titleId = useId();
  const textId = useId();

  useEffect(() => {
    const ask = (dialog: Element, redo: () => void) => {
      pending.current = () => {
        released.add(dialog);
        redo();
      };
      confirmed.current = false;
      setAsking(true);
    };

    const markChanged = (event: Event) => {
      const dialog = dialogOf(event.target);
      if (dialog) changed.add(dialog);
    };

    const onKeyDown = (event: KeyboardEvent) => {
      const dialog = dialogOf(event.target);
      if (event.key === 'Enter' && dialog && event.target instanceof Element && event.target.closest('.MuiAutocomplete-root')) {
        // Enter in a picker picks (MUI does that) and never submits the dialog's form.
        event.preventDefault();
        if (event.target.getAttribute('aria-expanded') === 'true') changed.add(dialog);
      }
      if (event.key !== 'Escape' || !needsAsking(dialog)) return;
      // An open picker or select closes its list first (MUI's picker keeps the dialog open then).
      if (event.target instanceof Element && event.target.getAttribute('aria-expanded') === 'true') return;
      if (
        event.target instanceof Element &&
        event.target.closest('.MuiAutocomplete-root') &&
        document.querySelector('.MuiAutocomplete-popper')
      )
        return;
      event.preventDefault();
      event.stopPropagation();
      const target = event.target;
      ask(dialog, () => target?.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true })));
    };

    const onMouseDown = (event: MouseEvent) => {
      const target = event.target;
      if (!(target instanceof Element) || !target.classList.contains('MuiDialog-container')) return;
      const dialog = dialogOf(target);
      if (!needsAsking(dialog)) return;
      event.stopPropagation();
      ask(dialog, () => {
        target.dispatchEvent(new MouseEvent('mousedown', { bubbles: true }));
        target.dispatchEvent(new MouseEvent('click', { bubbles: true }));
      });
    };

    const onClick = (event: MouseEvent) => {
      const target = event.target instanceof Element ? event.target : null;
      // A choice in a picker's or select's list (rendered outside the dialog) changes the top dialog.
      if (target?.closest('[role="option"]')) {
        const top = topDialog();
        if (top) changed.add(top);
        return;
      }
      const dialog = dialogOf(target);
      if (!target || !dialog) return;
      const button = target.closest('button');
      if (!button) return;
      const isCancel = button.hasAttribute('data-dialog-cancel') || CANCEL_WORDS.has(button.textContent?.trim() ?? '');
      if (!isCancel) {
        // Buttons inside the form (add a row, remove a chip, choose a file) change it too.
        if (button.closest('.MuiDialogContent-root')) changed.add(dialog);
        return;
      }
      if (!needsAsking(dialog)) return;
      event.preventDefault();
      event.stopPropagation();
      ask(dialog, () => button.click());
    };

    const onFocusIn = (event: FocusEvent) => {
      const target = event.target;
      if (!(target instanceof Element)) return;
      const dialog = dialogOf(target);
      const previous = lastFocused;
      if (target instanceof HTMLElement && target !== document.body) lastFocused = target;
      if (!dialog) return;
      if (!openers.has(dialog) && previous?.isConnected && !dialog.contains(previous)) openers.set(dialog, previous);
      if (!target.classList.contains('MuiDialog-container') && target.getAttribute('role') !== 'dialog') return;
      if (!dialog.hasAttribute('data-dialog-guard')) focusFirstField(dialog);
    };

    const onFocusOut = (event: FocusEvent) => {
      const dialog = dialogOf(event.target);
      if (dialog && !dialogOf(event.relatedTarget)) returnFocus(dialog);
    };

    document.addEventListener('input', markChanged, true);
    document.addEventListener('change', markChanged, true);
    document.addEventListener('keydown', onKeyDown, true);
    document.addEventListener('mousedown', onMouseDown, true);
    document.addEventListener('click', onClick, true);
    document.addEventListener('focusin', onFocusIn, true);
    document.addEventListener('focusout', onFocusOut, true);
    return () => {
      document.removeEventListener('input', markChanged, true);
      document.removeEventListener('change', markChanged, true);
      document.removeEventListener('keydown', onKeyDown, true);
      document.removeEventListener('mousedown', onMouseDown, true);
      document.removeEventListener('click', onClick, true);
      document.removeEventListener('focusin', onFocusIn, true);
      document.removeEventListener('focusout', onFocusOut, true);
    };
  }, []);

  const close = (discard: boolean) => {
    confirmed.current = discard;
    setAsking(false);
  };

  return (
    <Dialog
      open={asking}
      onClose={() => close(false)}
      role="alertdialog"
      aria-labelledby={titleId}
      aria-describedby={textId}
      maxWidth="xs"
      fullWidth
      data-dialog-guard=""
      slotProps={{
        transition: {
          // The dialog underneath closes only once this one is gone (MUI closes the top dialog only).
          onExited: () => {
            const redo = pending.current;
            pending.current = null;
            if (confirmed.current) redo?.();
          },
        },
      }}
    >
      <DialogTitle id={titleId}>{SHARED.discardTitle}</DialogTitle>
      <DialogContent>
        <DialogContentText id={textId}>{SHARED.discardText}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={() => close(false)} autoFocus>
          {SHARED.discardKeep}
        </Button>
        <Button onClick={() => close(true)} variant="contained" color="error">
          {SHARED.discardConfirm}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

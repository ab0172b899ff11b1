import { useSyncExternalStore } from 'react';
import { getScript, inScript } from '../script';
import { UI } from '../texts';

/**
 * What a signed-in visit to /app shows while the application loads (issue 13 item 3): on a phone, the
 * shell's top bar as AppShell draws it there (MUI's AppBar at phone width: the menu button, the
 * ministry's name, the script button, the icon of 'Крај рада'), drawn with plain CSS (public.css, `tp-frame`) by the
 * entry, before MUI, the profile and the screen have loaded; below it the screen's loader. React replaces
 * it with the real bar, the same size in the same place (no layout shift), which then also greets the user
 * and works. Until then its buttons are drawings (aria-hidden), the page says it is loading. Wider
 * screens (the side rail, whose items depend on the user's role) keep the plain loader.
 */
export function LightFrame() {
  const other = getScript() === 'lat' ? 'Ћир' : 'Lat';
  return (
    <div className="tp-frame" ref={setFrameElement}>
      <div className="tp-frame-bar">
        <div className="tp-frame-toolbar">
          <span className="tp-frame-menu" aria-hidden="true">
            <svg viewBox="0 0 24 24" focusable="false" aria-hidden="true">
              <path d="M3 18h18v-2H3zm0-5h18v-2H3zm0-7v2h18V6z" fill="currentColor" />
            </svg>
          </span>
          <div className="tp-frame-titles">
            <div className="tp-frame-title">{inScript(UI.ministry)}</div>
            <p className="tp-frame-greeting" />
          </div>
          <span className="tp-frame-script" aria-hidden="true">
            {other}
          </span>
          <span className="tp-frame-logout" aria-hidden="true">
            <svg viewBox="0 0 24 24" focusable="false" aria-hidden="true">
              <path
                d="m17 7-1.41 1.41L18.17 11H8v2h10.17l-2.58 2.58L17 17l5-5zM4 5h8V3H4c-1.1 0-2 .9-2 2v14c0 1.1.9 2 2 2h8v-2H4z"
                fill="currentColor"
              />
            </svg>
          </span>
        </div>
      </div>
      <div className="tp-frame-main">
        <div className="tp-frame-loader">
          <div className="tp-spinner" role="progressbar" aria-label={inScript(UI.loading)} />
        </div>
      </div>
    </div>
  );
}

let frameUp = false;
const listeners = new Set<() => void>();
let frameElement: HTMLElement | null = null;

function setFrameElement(element: HTMLElement | null): void {
  frameElement = element;
}

/** main.tsx: this visit opens on /app; the frame shows until endLightFrame. */
export function startLightFrame(): void {
  frameUp = true;
}

/**
 * The shell is mounted, or the visit leaves /app (no token, a failed profile): the frame goes. It is hidden
 * at once, in the commit that calls this (a layout effect: the same paint shows the shell without it), and
 * unmounted by main.tsx's Root in a later task: a store update from a layout effect would render Root again
 * synchronously inside that commit's task, and run all the first commit's passive effects in it too
 * (issue 13 item 3, TBT: ~160 ms of the first visit's longest task under Lighthouse's 4× slowdown).
 */
export function endLightFrame(): void {
  if (!frameUp) return;
  frameUp = false;
  if (frameElement) frameElement.style.display = 'none';
  setTimeout(() => {
    for (const listener of listeners) listener();
  }, 0);
}

/** Whether the frame still shows. */
export function lightFrameUp(): boolean {
  return frameUp;
}

export function useLightFrame(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => frameUp,
  );
}

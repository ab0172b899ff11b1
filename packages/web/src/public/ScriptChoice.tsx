/**
 * The script switch of the public pages (issue 13 item 10): Ћирилица / Latinica for a visitor nobody is
 * signed in as yet, kept in this browser (localStorage, script.ts); after sign-in the profile's `pismo`
 * wins (FullApp). Plain buttons and CSS, no MUI: the sign-in page stays light. The pages read again at
 * once (they listen to onScriptChange), nothing is saved on the server.
 */
import { useSyncExternalStore } from 'react';
import { getScript, inScript, onScriptChange, SCRIPT_NAMES, setScript } from '../script';
import { UI } from '../texts';

/** Re-renders the caller when the user switches between Ћирилица and Latinica. */
export function useScript(): void {
  useSyncExternalStore(onScriptChange, getScript, getScript);
}

export function ScriptChoice() {
  useScript();
  const current = getScript();
  return (
    <fieldset className="tp-script" aria-label={inScript(UI.script)}>
      {(['cyr', 'lat'] as const).map((script) => (
        <button
          key={script}
          type="button"
          className="tp-script-button"
          aria-pressed={script === current}
          lang={script === 'cyr' ? 'sr-Cyrl' : 'sr-Latn'}
          onClick={() => setScript(script)}
        >
          {SCRIPT_NAMES[script]}
        </button>
      ))}
    </fieldset>
  );
}

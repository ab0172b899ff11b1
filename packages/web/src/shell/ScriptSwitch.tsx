/**
 * The script switch (issue 13 item 10): Ћирилица (default) / Latinica, in the top bar and in My account.
 * A change is saved for the user (POST /api/user/edit-script) and kept in this browser (localStorage, so
 * the public pages follow it); then the page loads again, so every text — also those a module computed
 * once (column headings, option lists), MUI's and the date pickers' — reads in the new script.
 * After sign-in the profile's `pismo` wins over what this browser kept (useProfileScript).
 */
import { Button, ToggleButton, ToggleButtonGroup, Typography, useMediaQuery } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import type { Pismo, UserDto } from '@trasa/domain';
import { useEffect, useId, useState } from 'react';
import { saveScript } from '../api/account';
import { useSnackbar } from '../components/SnackbarProvider';
import { getScript, SCRIPT_NAMES, setScript } from '../script';
import { UI } from '../texts';
import { TEXT_BLUE } from '../theme';
import { PROFILE_KEY } from './session';

const SHORT_NAMES: Record<Pismo, string> = { cyr: 'Ћир', lat: 'Lat' };

/** Whether this browser keeps the script (without storage a reload would bring the default back). */
function kept(script: Pismo): boolean {
  try {
    return globalThis.localStorage?.getItem('trasa.script') === script;
  } catch {
    return false;
  }
}

/** Shows the app in `script`: the page loads again when the browser keeps the choice. */
export function applyScript(script: Pismo): void {
  if (script === getScript()) return;
  setScript(script);
  if (kept(script)) window.location.reload();
}

/** After sign-in the profile's script wins over the browser's. */
export function useProfileScript(user: UserDto): void {
  useEffect(() => {
    if (user.pismo && user.pismo !== getScript()) applyScript(user.pismo);
  }, [user.pismo]);
}

/** On the blue top bar: a white pill, the chosen script in the bar's dark blue (contrast as the 'Крај рада' button). */
const ON_BAR = {
  flexShrink: 0,
  bgcolor: 'common.white',
  '& .MuiToggleButton-root': {
    py: 0.25,
    px: 1,
    color: TEXT_BLUE,
    borderColor: TEXT_BLUE,
    textTransform: 'none',
    '&:hover': { bgcolor: 'grey.100' },
    '&.Mui-selected, &.Mui-selected:hover': { bgcolor: TEXT_BLUE, color: 'common.white' },
  },
} as const;

/**
 * The switch; `compact` in the top bar (Ћир / Lat), the full names in My account. A button's name is
 * the text it shows (WCAG 2.5.3 "label in name": one says what one sees, axe's
 * label-content-name-mismatch); in the top bar the full name of the script is its title (a tooltip, read
 * as the button's description), each in its own script and lang-tagged. `local` for a visitor
 * nobody signed in as (the school's stocktaking page): the choice is kept by this browser only.
 */
export function ScriptSwitch({ compact = false, local = false }: { compact?: boolean; local?: boolean }) {
  const snackbar = useSnackbar();
  const queryClient = useQueryClient();
  const labelId = useId();
  const [busy, setBusy] = useState(false);
  const current = getScript();
  const narrow = useMediaQuery('(max-width:549.95px)', { noSsr: true });

  async function change(next: Pismo | null) {
    if (!next || next === current || busy) return;
    if (local) {
      applyScript(next);
      return;
    }
    setBusy(true);
    try {
      await saveScript(next);
      queryClient.setQueryData<UserDto>(PROFILE_KEY, (user) => (user ? { ...user, pismo: next } : user));
      applyScript(next);
    } catch {
      snackbar.error(UI.scriptSaveFailed);
    } finally {
      setBusy(false);
    }
  }

  if (compact && narrow) {
    // A phone's bar has room for one button: it names the other script and switches to it.
    const other: Pismo = current === 'lat' ? 'cyr' : 'lat';
    return (
      <Button
        size="small"
        variant="outlined"
        disabled={busy}
        onClick={() => void change(other)}
        title={`${UI.script}: ${SCRIPT_NAMES[other]}`}
        lang={other === 'cyr' ? 'sr-Cyrl' : 'sr-Latn'}
        sx={{ ...ON_BAR['& .MuiToggleButton-root'], minWidth: 0, flexShrink: 0, bgcolor: 'common.white' }}
      >
        {SHORT_NAMES[other]}
      </Button>
    );
  }

  return (
    <>
      {!compact && (
        <Typography id={labelId} variant="body2" sx={{ mb: 0.5 }}>
          {UI.scriptHint}
        </Typography>
      )}
      <ToggleButtonGroup
        exclusive
        size="small"
        value={current}
        onChange={(_, next: Pismo | null) => void change(next)}
        aria-label={UI.script}
        aria-describedby={compact ? undefined : labelId}
        disabled={busy}
        sx={compact ? ON_BAR : undefined}
      >
        {(['cyr', 'lat'] as const).map((script) => (
          <ToggleButton
            key={script}
            value={script}
            title={compact ? SCRIPT_NAMES[script] : undefined}
            lang={script === 'cyr' ? 'sr-Cyrl' : 'sr-Latn'}
          >
            {compact ? SHORT_NAMES[script] : SCRIPT_NAMES[script]}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
    </>
  );
}

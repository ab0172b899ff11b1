import { srRS } from '@mui/material/locale';
import { createTheme, type Theme } from '@mui/material/styles';
import { keepEnterInPicker } from './components/pickerFilter';
import { getScript, type Script, toScript } from './script';

/** Spec 1 §9: colours, Roboto for text and Bitter for headings, dialogs up to 800 px wide. */
// Bitter's Serbian 'locl' forms turn upright г, п, т into italic shapes; headings keep the common ones.
const headings = { fontFamily: '"Bitter", "Roboto", serif', fontWeight: 700, fontFeatureSettings: '"locl" 0' } as const;

/**
 * Spec 1 §9's blue. White on it is 4.49:1, just under WCAG AA's 4.5:1 for small text, so it stays only
 * where it passes: the top bar (its texts are large, see AppShell) and large text.
 */
export const SPEC_BLUE = '#417AB4';
/** The same blue a shade darker (4.9:1 on white, 4.7:1 on the page's grey): small text, links, buttons. */
export const TEXT_BLUE = '#3C74AC';
/** The focus ring: 10.8:1 on white, 3.1:1 next to TEXT_BLUE's white inner ring. */
export const FOCUS_RING = '#1E3F63';

const focusRing = { outline: `3px solid ${FOCUS_RING}`, outlineOffset: '-3px' } as const;

/**
 * MUI's own Serbian texts (srRS is written in Latin: 'Otvori', 'Zatvori', 'Nema opcija') in the given script:
 * every string, and every string a text function answers (called with its own arguments).
 */
function inScriptDeep<T>(value: T, script: Script): T {
  if (typeof value === 'string') return toScript(value, script) as T;
  if (typeof value === 'function') {
    const fn = value as (...args: unknown[]) => unknown;
    return ((...args: unknown[]) => inScriptDeep(fn(...args), script)) as T;
  }
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, inScriptDeep(v, script)])) as T;
  }
  return value;
}

const themes = new Map<Script, Theme>();

/** The theme in the user's script (made once per script: MUI's own texts are the only part that differs). */
export function appTheme(script: Script = getScript()): Theme {
  const made = themes.get(script);
  if (made) return made;
  const theme = makeTheme(script);
  themes.set(script, theme);
  return theme;
}

const makeTheme = (script: Script) =>
  createTheme(
    {
      palette: {
        primary: { main: TEXT_BLUE, dark: '#2D5A87' },
        secondary: { main: '#BE2528' },
        error: { main: '#BE2528' },
        success: { main: '#006442' },
        // MUI's orange (#ed6c02) carries white text at 3.1:1 (a filled warning notice failed WCAG's 4.5:1);
        // this amber carries it at 5.6:1.
        warning: { main: '#b45309', contrastText: '#fff' },
      },
      typography: {
        fontFamily: '"Roboto", "Helvetica", "Arial", sans-serif',
        h1: { ...headings, fontSize: '1.75rem' },
        h2: { ...headings, fontSize: '1.5rem' },
        h3: { ...headings, fontSize: '1.25rem', fontWeight: 500 },
        h4: { ...headings, fontSize: '1.15rem', fontWeight: 500 },
        h5: { ...headings, fontSize: '1.05rem', fontWeight: 500 },
        h6: { ...headings, fontSize: '1rem', fontWeight: 500 },
        button: { textTransform: 'none', fontWeight: 500 },
      },
      components: {
        MuiDialog: {
          styleOverrides: { paper: { maxWidth: 800 } },
        },
        MuiTextField: {
          defaultProps: { size: 'small' },
        },
        // Visible focus everywhere (issue 13): buttons, links, menu items and table rows reached by Tab.
        MuiButtonBase: {
          styleOverrides: {
            root: { '&.Mui-focusVisible': { outline: `2px solid ${FOCUS_RING}`, outlineOffset: '2px' } },
          },
        },
        MuiListItemButton: {
          styleOverrides: {
            // The white inner ring keeps the focus visible on the current (blue) item too.
            root: { '&.Mui-focusVisible': { ...focusRing, boxShadow: 'inset 0 0 0 5px #fff' } },
          },
        },
        // A table wider than the screen scrolls inside its container: Tab reaches it, arrows scroll it.
        MuiTableContainer: {
          defaultProps: { tabIndex: 0 },
        },
        MuiTableRow: {
          styleOverrides: {
            root: { '&:focus-visible': { ...focusRing, outlineOffset: '-3px' } },
          },
        },
        // Tabs scroll instead of being clipped on phones ('Насеља').
        MuiTabs: {
          defaultProps: { variant: 'scrollable', scrollButtons: 'auto', allowScrollButtonsMobile: true },
        },
        MuiTab: {
          styleOverrides: { root: { '&.Mui-focusVisible': { ...focusRing } } },
        },
        MuiAppBar: {
          styleOverrides: {
            // On the blue bar a ring of two colours: white outside (4.6:1 on the bar, WCAG's 3:1 for a focus
            // indicator; the dark ring alone was 2.4:1), the dark one inside it (10.8:1 next to the white
            // buttons). The selector outweighs the buttons' own ring.
            root: {
              '& .MuiButtonBase-root.Mui-focusVisible, & a:focus-visible': {
                outline: '2px solid #fff',
                outlineOffset: '2px',
                boxShadow: `0 0 0 2px ${FOCUS_RING}`,
              },
            },
          },
        },
        // Every picker (shared or a feature's own): ArrowDown highlights the first option, Enter picks it and
        // never submits the form around it.
        MuiAutocomplete: {
          defaultProps: { autoHighlight: true, onKeyDown: keepEnterInPicker },
        },
        // Opaque tooltips: MUI's translucent grey fell under 4.5:1 over the blue bar and the current item.
        MuiTooltip: {
          styleOverrides: { tooltip: { backgroundColor: '#2B2B2B' } },
        },
        // The tables' sort buttons are at least 24 px high and clear of their neighbours: WCAG 2.2's minimum
        // target (Lighthouse accessibility, issue 13).
        MuiTableSortLabel: {
          styleOverrides: { root: { minHeight: 24, marginRight: 4 } },
        },
        MuiAccordionSummary: {
          styleOverrides: { root: { '&.Mui-focusVisible': { ...focusRing } } },
        },
      },
    },
    inScriptDeep(srRS, script),
  );

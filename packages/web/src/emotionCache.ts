import './firstStyles.css';
import createCache, { type StylisPlugin } from '@emotion/cache';
import FIRST_STYLES from './firstStyles.json';

/**
 * The properties some browser still in use needs with the `-webkit-` prefix beside the standard one:
 * `user-select` and `box-decoration-break` (Safari), `backdrop-filter` and `mask…` (older Safari),
 * `print-color-adjust` (Chromium before 136), `text-decoration…` (older Safari's shorthand).
 */
const WEBKIT_TOO = /^(user-select|box-decoration-break|backdrop-filter|mask|print-color-adjust|text-decoration)/;

/** Writes `-webkit-<declaration>` before such a declaration, as stylis' prefixer writes it. */
const webkitWhereNeeded: StylisPlugin = (element) => {
  if (element.type === 'decl' && !element.return && typeof element.props === 'string' && WEBKIT_TOO.test(element.props)) {
    element.return = `-webkit-${element.value}${element.value}`;
  }
};

/**
 * Emotion's cache for MUI's styles (FullApp's CacheProvider), the default one but for stylis' prefixer
 * (issue 13 item 3): the prefixer ran every declaration of every style MUI inserts through its table of
 * old browsers' prefixes (`-webkit-box`, `-ms-flexbox`, `-moz-user-select`, `-webkit-transition` …), a
 * large part of the list pages' first commit; the browsers the application supports read the standard
 * properties. What MUI writes prefixed itself (`-webkit-tap-highlight-color`, `::-moz-focus-inner`,
 * `-webkit-appearance` …) is unchanged, and the few properties above keep their `-webkit-` twin. The same
 * key as the default cache: the same class names.
 */
export const emotionCache = createCache({ key: 'css', stylisPlugins: [webkitWhereNeeded] });

// The styles of the /app pages' first visit (the shell, the cluster and user lists, at phone and desktop
// width) come as a stylesheet with FullApp's chunk, written by `LH_MODE=styles node bench/lighthouse.mjs`
// from the rules emotion inserted (issue 13 item 3): inserting them one by one (stylis' compile, then
// `insertRule` per rule, ~330 rules) was a large part of the first commits' long tasks. Marked inserted,
// emotion does not insert them again; the name of a style is the hash of its text, so a name whose style
// changed (MUI, the theme) is simply no longer met, and its new style is inserted as before.
for (const name of FIRST_STYLES) emotionCache.inserted[name] = true;

import { useLayoutEffect } from 'react';

/**
 * The user timing that says when the visit's first screen painted its real content: a list's first rows
 * (or its empty text), an activity's title and status, the user's data on My account. bench/lighthouse.mjs
 * reads it from Lighthouse's trace ('user-timings'); under Lighthouse's mobile throttling it must come
 * within 3.5 s (docs/performance.md).
 */
export const FIRST_CONTENT_MARK = 'trasa:first-row';

let marked = false;

/**
 * Sets FIRST_CONTENT_MARK once per page load, after the frame that first shows a screen's content with
 * `shown` true has painted (the next task after that frame's animation callbacks). DataTable and the
 * screens without a list call it; the first of them to show its content marks.
 */
export function useFirstContentMark(shown: boolean): void {
  useLayoutEffect(() => {
    if (!shown || marked) return;
    marked = true;
    if (typeof performance === 'undefined' || typeof performance.mark !== 'function') return;
    requestAnimationFrame(() => {
      setTimeout(() => performance.mark(FIRST_CONTENT_MARK), 0);
    });
  }, [shown]);
}

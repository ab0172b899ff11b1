import { useEffect } from 'react';
import { UI } from '../texts';

/** 'Кластери — Траса': the screen's name, then the application's (issue 13 item 8). */
export function documentTitleOf(screen: string | null | undefined): string {
  return screen ? `${screen} — ${UI.appName}` : UI.appName;
}

/** Sets the browser tab's title while the screen is shown. */
export function useDocumentTitle(screen: string | null | undefined): void {
  useEffect(() => {
    document.title = documentTitleOf(screen);
  }, [screen]);
}

import type { FilterOptionsState } from '@mui/material';
import { foldForSearch } from '@trasa/domain';

/** Folded labels, computed once per option object (lists of up to a few thousand options). */
const folded = new WeakMap<object, string>();

function foldedLabel<T>(option: T, label: (o: T) => string): string {
  if (typeof option !== 'object' || option === null) return foldForSearch(label(option));
  let text = folded.get(option);
  if (text === undefined) {
    text = foldForSearch(label(option));
    folded.set(option, text);
  }
  return text;
}

/**
 * The filter of every picker: the typed text matches an option's label in either script, any case, with
 * or without diacritics ('сирог', 'Sirog' and 'SIROG' find 'Sirogojno'; 'чајетина' finds 'Čajetina'), folded
 * as the server's search folds (foldForSearch). `limit` caps the matches listed (long lists).
 */
export function foldedFilter<T>(label: (o: T) => string, limit?: number) {
  return (options: readonly T[], state: FilterOptionsState<T>): T[] => {
    const query = foldForSearch(state.inputValue.trim());
    const out: T[] = [];
    for (const option of options) {
      if (query && !foldedLabel(option, label).includes(query)) continue;
      out.push(option);
      if (limit !== undefined && out.length >= limit) break;
    }
    return out;
  };
}

/**
 * Enter inside a picker picks the highlighted option (MUI does that) and never submits the dialog's form
 * (issue 13: a cluster was created with no groups). Set as the Autocomplete's onKeyDown.
 */
export function keepEnterInPicker(event: { key: string; preventDefault: () => void }): void {
  if (event.key === 'Enter') event.preventDefault();
}

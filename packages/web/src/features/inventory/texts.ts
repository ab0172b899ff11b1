/** Fallback texts of the inventory screens the domain's INVENTORY does not word. */
import { scripted } from '../../scripted';
export const INV_TEXT = scripted({
  saveFailed: 'Čuvanje podataka nije uspešno.',
} as const);

/** Inventory notices stay 2 s; on a location's inventory 3.5 s; contract document errors 4 s (spec 3 §9). */
export const LOCATION_INVENTORY_NOTICE_MS = 3500;
export const DOCUMENT_NOTICE_MS = 4000;
/** Spec 3 (timings): the inventory lists' search waits 2 s (the other lists 1 s). */
export const INVENTORY_SEARCH_DEBOUNCE_MS = 2000;

import type { Paging } from '../../platform/paging.js';

export { allInventory, itemSearch } from './reportAll.js';
export { perLocation } from './reportPerLocation.js';
export { buildStocktaking, stocktakingList } from './reportStocktaking.js';
export { type SumFilters, sumFilterQuery, sumPerType, sumWhere } from './reportSum.js';

/**
 * The four inventory reports (spec 3 §7 "Inventory reports and school notifications"), one file each:
 * every item (reportAll.ts), the sum per codebook entry (reportSum.ts), per location
 * (reportPerLocation.ts) and a location's stocktaking list (reportStocktaking.ts).
 */

export type Search = Paging & { eng?: string; srb?: string };

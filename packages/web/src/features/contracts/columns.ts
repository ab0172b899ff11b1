import type { ContractListItem } from '../../api/contracts';
import { statusWithDeadline } from '../../components/ColourLegend';
import type { ColumnDef } from '../../components/tableTypes';
import { UI } from '../../texts';
import { statusLabel } from '../clusters/format';

/**
 * A contract's status with what the row's colour adds ('У току, рок истиче'): the colour is never the only
 * sign (WCAG 1.4.1). On a phone it shows under the name.
 */
export const CONTRACT_STATUS_COLUMN: ColumnDef<ContractListItem> = {
  id: 'status',
  header: UI.status,
  accessorFn: (c) => statusWithDeadline(statusLabel(c.status), c.boja),
  phoneDetail: true,
};

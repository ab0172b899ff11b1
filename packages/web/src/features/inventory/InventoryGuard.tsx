import { mayUseInventory } from '@trasa/domain';
import type { ReactNode } from 'react';
import { NotFoundPage } from '../../components/NotFoundPage';
import { useCurrentUser } from '../../shell/session';

/**
 * The inventory is the Admin's and a Naručilac employee's (spec 3 §2.10): another employee, who can
 * reach the route by its address, sees the not-found page (the server refuses them too).
 */
export function InventoryGuard({ children }: { children: ReactNode }) {
  const me = useCurrentUser();
  if (!mayUseInventory(me.rola, me.grupa?.tipKod)) return <NotFoundPage />;
  return <>{children}</>;
}

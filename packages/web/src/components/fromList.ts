import { useLocation } from 'react-router';

/**
 * Detail screens are reachable only from their list (spec 1 §2.7, §2.8): the list navigates with this
 * state, and a detail opened any other way (typed address, reload in a new tab) redirects to the list.
 */
export const FROM_LIST = { fromList: true } as const;

export function useCameFromList(): boolean {
  const { state } = useLocation();
  return typeof state === 'object' && state !== null && 'fromList' in state && state.fromList === true;
}

import { startTransition, useEffect, useState } from 'react';

/**
 * How many of `count` parts are shown: `first` at once, then one more per task, each in a non-urgent pass
 * of its own (startTransition: React yields to the browser every few milliseconds while it renders) after
 * the commit before, so the browser paints and handles input in between. Parts rendered together in one
 * pass made one long task (TBT): the activity page's rest, the report hub's contracts.
 */
export function useOneMorePerTask(count: number, first: number): number {
  const [shown, setShown] = useState(first);
  useEffect(() => {
    if (shown >= count) return;
    const timer = setTimeout(() => startTransition(() => setShown((n) => n + 1)), 0);
    return () => clearTimeout(timer);
  }, [shown, count]);
  return shown;
}

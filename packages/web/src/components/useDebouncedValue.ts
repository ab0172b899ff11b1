import { useEffect, useState } from 'react';

/** The value once it has stayed unchanged for `delayMs` (the search boxes' 1000 ms, spec 1 §7). */
export function useDebouncedValue<T>(value: T, delayMs: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
}

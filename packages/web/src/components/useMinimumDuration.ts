import { useEffect, useRef, useState } from 'react';

/** True while `active`, and for at least `minMs` from when it became active (a loader that doesn't flicker). */
export function useMinimumDuration(active: boolean, minMs: number): boolean {
  const [lingering, setLingering] = useState(active);
  const startedAt = useRef(active ? Date.now() : 0);

  useEffect(() => {
    if (active) {
      startedAt.current = Date.now();
      setLingering(true);
      return;
    }
    const left = startedAt.current + minMs - Date.now();
    if (left <= 0) {
      setLingering(false);
      return;
    }
    const timer = setTimeout(() => setLingering(false), left);
    return () => clearTimeout(timer);
  }, [active, minMs]);

  return active || lingering;
}

import { Box } from '@mui/material';
import { type ReactNode, startTransition, useLayoutEffect, useRef, useState } from 'react';

/**
 * A chart's place, the width of its column, at least `height` tall: the chart is drawn at the width
 * measured here (and drawn again when it changes). Given no width, an @mui/x-charts chart measures its
 * container after it has mounted and renders again at once, in the same task (its store's update); given
 * one, it renders once, here in a non-urgent pass of its own (React yields to the browser while it renders).
 */
export function Sized({ height, children }: { height: number; children: (width: number) => ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => {
      const measured = Math.floor(element.clientWidth);
      startTransition(() => setWidth(measured));
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return (
    <Box ref={ref} sx={{ width: '100%', minHeight: height }}>
      {width > 0 && children(width)}
    </Box>
  );
}

import { type ReactNode, Suspense, useState } from 'react';

/**
 * A form dialog whose code (the form library, the fields, the pickers) loads when it is first opened,
 * not with the list that opens it (issue 13 item 2: any screen ≤ 350 KB of compressed JavaScript): the
 * dialog is a React `lazy` component rendered inside `<OnceOpened open={…}>`, which renders nothing until
 * `open` is first true; from then on its children stay mounted, so the dialog closes with its transition
 * and keeps its state as an always-mounted one would.
 */
export function OnceOpened({ open, children }: { open: boolean; children: ReactNode }) {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  if (!open && !opened) return null;
  return <Suspense fallback={null}>{children}</Suspense>;
}

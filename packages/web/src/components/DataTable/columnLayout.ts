import { useMediaQuery } from '@mui/material';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useCurrentUser } from '../../session/currentUser';
import { type ColumnDef, columnIdOf } from '../tableTypes';
import type { ShownColumn } from './BodyRows';
import { savedLayout } from './listState';
import type { Visibility } from './types';

/**
 * Phones (issue 13 item 5): a list shows this many columns, its first ones or those marked `phone`; the
 * others stay a tap away.
 */
export const PHONE_COLUMNS = 2;
const PHONE_QUERY = '(max-width:599.95px)';

/**
 * The table's column layout: which columns show and in which order, from the layout saved in the profile
 * (else `hiddenColumns` hidden), as the column chooser changes it; on a phone the first columns only.
 */
export function useColumnLayout<T>(columns: ColumnDef<T>[], tableName: string, hiddenColumns: readonly string[] | undefined) {
  const user = useCurrentUser();
  const columnIds = useMemo(() => columns.map(columnIdOf), [columns]);
  const [layout] = useState(() => {
    const saved = savedLayout(user.tabela, tableName, columnIds);
    if (saved.columnVisibility || !hiddenColumns?.length) return saved;
    return { ...saved, columnVisibility: Object.fromEntries(hiddenColumns.map((id) => [id, false])) };
  });
  const [visibility, setVisibility] = useState<Visibility>(layout.columnVisibility ?? {});
  const [order, setOrder] = useState<string[] | null>(layout.columnOrder ?? null);
  /** The columns in the user's order; columns the order does not name follow in the list's order. */
  const ordered = useMemo((): ShownColumn<T>[] => {
    const known = (order ?? []).filter((id) => columnIds.includes(id));
    const ids = [...known, ...columnIds.filter((id) => !known.includes(id))];
    return ids.flatMap((id) => {
      const column = columns.find((c) => columnIdOf(c) === id);
      return column ? [{ id, column }] : [];
    });
  }, [order, columns, columnIds]);
  const shown = useMemo(() => ordered.filter((c) => visibility[c.id] !== false), [ordered, visibility]);

  // Phones: the first columns only (the others through 'Прикажи/сакриј колоне'), restored on a wide screen.
  // A column that cannot be hidden (the Admin's checkbox column) stays and does not count among them, so the
  // logs and comments show two columns of text on a phone too.
  const phone = useMediaQuery(PHONE_QUERY, { noSsr: true });
  const wideVisibility = useRef<Visibility | null>(null);
  useEffect(() => {
    if (phone && !wideVisibility.current) {
      wideVisibility.current = visibility;
      const fixed = ordered.filter((c) => c.column.enableHiding === false).map((c) => c.id);
      const candidates = ordered.filter((c) => visibility[c.id] !== false && !fixed.includes(c.id));
      const marked = candidates.filter((c) => c.column.phone);
      const first = (marked.length ? marked : candidates).slice(0, PHONE_COLUMNS).map((c) => c.id);
      setVisibility({
        ...visibility,
        ...Object.fromEntries(ordered.map((c) => [c.id, fixed.includes(c.id) || first.includes(c.id)])),
      });
    } else if (!phone && wideVisibility.current) {
      setVisibility(wideVisibility.current);
      wideVisibility.current = null;
    }
  }, [phone, visibility, ordered]);

  return { columnIds, visibility, setVisibility, setOrder, ordered, shown, phone };
}

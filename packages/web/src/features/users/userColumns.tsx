import type { UserDto } from '@trasa/domain';
import type { ColumnDef } from '../../components/tableTypes';
import { roleName } from '../../shipped';
import { UI } from '../../texts';

export function statusLabel(status: UserDto['status']): string {
  return status === 'aktivan' ? UI.statusAktivan : UI.statusNeaktivan;
}

/** Име, Презиме, Имејл, Рола, Група, Статус (spec 1 §2.7). */
export const USER_COLUMNS: ColumnDef<UserDto>[] = [
  { accessorKey: 'ime', header: UI.ime },
  { accessorKey: 'prezime', header: UI.prezime },
  { accessorKey: 'email', header: UI.email },
  { id: 'rola', header: UI.role, accessorFn: (u) => roleName(u.rolaNaziv || u.rola) },
  { id: 'grupa', header: UI.group, accessorFn: (u) => u.grupa?.naziv ?? UI.empty },
  { id: 'status', header: UI.status, accessorFn: (u) => statusLabel(u.status), phoneDetail: true },
];

/** Guests have no group; whether the address is confirmed matters instead. */
export const GUEST_COLUMNS: ColumnDef<UserDto>[] = [
  { accessorKey: 'ime', header: UI.ime },
  { accessorKey: 'prezime', header: UI.prezime },
  { accessorKey: 'email', header: UI.email },
  { id: 'emailPotvrdjen', header: UI.emailPotvrdjen, accessorFn: (u) => (u.emailPotvrdjen ? UI.yes : UI.no) },
  { id: 'status', header: UI.status, accessorFn: (u) => statusLabel(u.status), phoneDetail: true },
];

/** Inactive accounts are greyed out (the status says it in words, on a phone under the name). */
export function userRowColor(u: UserDto): string | undefined {
  return u.status === 'neaktivan' ? '#eeeeee' : undefined;
}

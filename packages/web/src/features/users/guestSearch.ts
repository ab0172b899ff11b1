import { foldForSearch, type UserDto } from '@trasa/domain';
import { listGuests } from '../../api/users';
import type { TableQuery } from '../../components/DataTable';

/** The guests list of spec 1 §9 loads every guest at once (limit 50000). */
export const ALL_GUESTS_LIMIT = 50_000;

/** A guest matches the typed text or its transliteration by name or e-mail, folded ('ђорђе' = 'Đorđe' = 'djordje'). */
export function guestMatches(user: UserDto, eng: string, srb: string): boolean {
  const text = foldForSearch(`${user.ime} ${user.prezime} ${user.email}`);
  return [eng, srb].some((q) => q.trim() && text.includes(foldForSearch(q.trim())));
}

/**
 * The 'Gosti' tab: a page of GET /api/user/guests; with search text, every guest (spec 1 §9: the guests
 * list loads up to 50000) filtered here in both scripts and paged here (GET /api/user/guests takes no
 * search text, and /api/search/user lists members, not guests).
 */
export async function fetchGuests({ page, limit, search, signal, sort, order }: TableQuery) {
  if (!search) {
    const data = await listGuests({ page, limit, sort, order }, signal);
    return { rows: data.guests, total: data.totalResults };
  }
  const all = await listGuests({ page: 1, limit: ALL_GUESTS_LIMIT, sort, order }, signal);
  const found = all.guests.filter((u) => guestMatches(u, search.eng, search.srb));
  return { rows: found.slice((page - 1) * limit, page * limit), total: found.length };
}

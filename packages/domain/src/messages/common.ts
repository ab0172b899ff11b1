/** Server answers shared by every feature. Spec texts where the spec has them; ours otherwise (docs/decisions.md). */
export const COMMON = {
  badRequest: 'Neispravan zahtev.',
  invalidValue: 'Neispravna vrednost.',
  /** A list's `sort` or `order` it does not know (issue 13 item 9). */
  badSort: 'Neispravan parametar sortiranja.',
  unauthenticated: 'Niste prijavljeni.',
  forbidden: 'Nemate dozvolu za ovu akciju.',
  notFound: 'Није пронађено',
  routeNotFound: 'Tražena adresa ne postoji.',
  tooLarge: 'Zahtev je prevelik.',
  tooMany: 'Previše zahteva. Pokušajte ponovo malo kasnije.',
  serverError: 'Greška na serveru. Pokušajte ponovo.',
  emptyTable: 'Нема пронађених података.',
  pageNotFound: 'Страница коју тражите не постоји',
  /** Spec 1 §8 'Network or server error', in Serbian (docs/decisions.md "The web: no English on screen"). */
  networkError: 'Greška mreže ili servera',
  /** A call that never reached the server (spec 2 §8 'Network error: server unreachable or CORS blocked'). */
  networkUnreachable: 'Greška mreže: server nije dostupan ili je zahtev blokiran',
  /** An Idempotency-Key header that is not a UUID (docs/decisions.md "Offline"). */
  idempotencyKeyInvalid: 'Zaglavlje Idempotency-Key mora biti UUID (npr. 3f2b8c1e-9d4a-4e6b-8a7c-1b2c3d4e5f60).',
  /** The same key while its first request is still being applied (503: the queue tries again later). */
  idempotencyBusy: 'Ova izmena se upravo primenjuje. Pokušajte ponovo za nekoliko trenutaka.',
  /** The same key with another method or address: a key names one change. */
  idempotencyKeyReused: 'Ključ Idempotency-Key je već upotrebljen za drugi zahtev.',
} as const;

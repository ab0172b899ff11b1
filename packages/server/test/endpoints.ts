import type { RoleKey } from '@trasa/domain';

/**
 * Every /api endpoint and who may call it. The authorization test calls each one as anonymous and as
 * each role: a caller outside `allowed` must get 401 (anonymous) or 403, a caller inside must not.
 * Each feature adds its rows here; the test fails when a registered route has no row.
 */
export type Endpoint = {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** The registered route pattern, e.g. /api/user/single/:id. */
  route: string;
  /** The URL to call (route with parameters filled in); defaults to `route`. */
  url?: string;
  payload?: unknown;
  allowed: 'public' | 'signedIn' | readonly RoleKey[];
};

const ADMIN: RoleKey[] = ['Admin'];
const MANAGERS: RoleKey[] = ['Admin', 'Rukovodilac'];
const STAFF: RoleKey[] = ['Admin', 'Rukovodilac', 'Zaposleni'];
/** A well-formed id that names nothing. */
const NO_ID = '00000000-0000-4000-8000-000000000000';

export const ENDPOINTS: Endpoint[] = [
  { method: 'GET', route: '/api/health', allowed: 'public' },
  { method: 'GET', route: '/api/docs/json', allowed: 'public' },
  { method: 'POST', route: '/api/user/login', payload: { email: 'niko@primer.rs', lozinka: 'Lozinka123' }, allowed: 'public' },
  { method: 'POST', route: '/api/user/signup', payload: {}, allowed: 'public' },
  { method: 'GET', route: '/api/user/activate', url: '/api/user/activate?email=a@b.rs&code=x', allowed: 'public' },
  { method: 'POST', route: '/api/user/reset-password', payload: { email: 'niko@primer.rs' }, allowed: 'public' },
  { method: 'GET', route: '/api/user/my-profile', allowed: 'signedIn' },
  { method: 'POST', route: '/api/user/change-password', payload: {}, allowed: 'signedIn' },
  { method: 'POST', route: '/api/user/change-info', payload: {}, allowed: 'signedIn' },
  { method: 'POST', route: '/api/user/edit-columns', payload: {}, allowed: 'signedIn' },
  { method: 'DELETE', route: '/api/user/my-profile', allowed: 'signedIn' },
  { method: 'GET', route: '/api/smtp/outbox', allowed: ADMIN },

  // users (spec 1 §7)
  { method: 'GET', route: '/api/user', url: '/api/user?page=1&limit=10', allowed: MANAGERS },
  { method: 'GET', route: '/api/user/users-per-role', url: `/api/user/users-per-role?roleId=${NO_ID}`, allowed: MANAGERS },
  { method: 'GET', route: '/api/user/guests', allowed: MANAGERS },
  { method: 'GET', route: '/api/user/single/:id', url: `/api/user/single/${NO_ID}`, allowed: MANAGERS },
  { method: 'POST', route: '/api/user', url: '/api/user/', payload: {}, allowed: MANAGERS },
  { method: 'PATCH', route: '/api/user/single/:id', url: `/api/user/single/${NO_ID}`, payload: {}, allowed: MANAGERS },
  { method: 'DELETE', route: '/api/user/single/:id', url: `/api/user/single/${NO_ID}`, allowed: MANAGERS },

  // roles
  { method: 'GET', route: '/api/role', allowed: MANAGERS },
  { method: 'GET', route: '/api/role/:id', url: `/api/role/${NO_ID}`, allowed: MANAGERS },
  { method: 'POST', route: '/api/role', payload: {}, allowed: ADMIN },
  { method: 'PATCH', route: '/api/role/:id', url: `/api/role/${NO_ID}`, payload: {}, allowed: MANAGERS },
  { method: 'POST', route: '/api/role/add-role', payload: {}, allowed: MANAGERS },

  // groups
  { method: 'GET', route: '/api/group', allowed: MANAGERS },
  { method: 'GET', route: '/api/group/:id', url: `/api/group/${NO_ID}`, allowed: MANAGERS },
  { method: 'GET', route: '/api/group/sve-videci/true', allowed: MANAGERS },
  { method: 'GET', route: '/api/group/sve-videci/false', allowed: MANAGERS },
  { method: 'POST', route: '/api/group/create', payload: {}, allowed: ADMIN },
  { method: 'PATCH', route: '/api/group/:id', url: `/api/group/${NO_ID}`, payload: {}, allowed: ADMIN },
  { method: 'DELETE', route: '/api/group/:id', url: `/api/group/${NO_ID}`, allowed: ADMIN },
  { method: 'PATCH', route: '/api/group/remove-user', url: `/api/group/remove-user?userId=${NO_ID}`, allowed: MANAGERS },

  // group types (spec 2 §5)
  { method: 'GET', route: '/api/types', allowed: STAFF },
  { method: 'POST', route: '/api/types', payload: {}, allowed: ADMIN },
  { method: 'PATCH', route: '/api/types/:id', url: `/api/types/${NO_ID}`, payload: {}, allowed: ADMIN },
  { method: 'DELETE', route: '/api/types/:id', url: `/api/types/${NO_ID}`, allowed: ADMIN },

  // search
  {
    method: 'GET',
    route: '/api/search/user',
    url: '/api/search/user?eng=djordj&srb=%D0%B4%D1%98%D0%BE%D1%80%D0%B4%D1%98',
    allowed: MANAGERS,
  },
  { method: 'GET', route: '/api/search/group', url: '/api/search/group?eng=optika', allowed: MANAGERS },

  // settlements (spec 2 §5, §7)
  { method: 'GET', route: '/api/naselje', url: '/api/naselje?page=1&limit=10', allowed: MANAGERS },
  { method: 'GET', route: '/api/search/naselje', url: '/api/search/naselje?eng=sirogojno', allowed: MANAGERS },
  { method: 'POST', route: '/api/naselje', payload: {}, allowed: ADMIN },
  { method: 'PATCH', route: '/api/naselje/:id', url: `/api/naselje/${NO_ID}`, payload: {}, allowed: ADMIN },
  { method: 'DELETE', route: '/api/naselje/:id', url: `/api/naselje/${NO_ID}`, allowed: ADMIN },

  // priorities
  { method: 'GET', route: '/api/priority', allowed: STAFF },
  { method: 'POST', route: '/api/priority', payload: {}, allowed: ADMIN },
  { method: 'PATCH', route: '/api/priority/:id', url: `/api/priority/${NO_ID}`, payload: {}, allowed: ADMIN },
  { method: 'DELETE', route: '/api/priority/:id', url: `/api/priority/${NO_ID}`, allowed: ADMIN },

  // clusters (spec 2 §7 "Clusters")
  { method: 'GET', route: '/api/location', url: '/api/location?page=1&limit=10', allowed: STAFF },
  { method: 'GET', route: '/api/search/location', url: '/api/search/location?eng=zlatibor', allowed: STAFF },
  { method: 'GET', route: '/api/location/get/autocomplete', url: '/api/location/get/autocomplete?value=zla', allowed: STAFF },
  { method: 'GET', route: '/api/location/:id', url: `/api/location/${NO_ID}`, allowed: STAFF },
  { method: 'POST', route: '/api/location', payload: {}, allowed: ADMIN },
  { method: 'PATCH', route: '/api/location/:id', url: `/api/location/${NO_ID}`, payload: {}, allowed: MANAGERS },
  { method: 'DELETE', route: '/api/location/:id', url: `/api/location/${NO_ID}`, allowed: ADMIN },

  // contracts of the four kinds, their documents and linking (spec 2 §7 "Contracts", "Linking")
  ...(['contract', 'contractIzv', 'contractPro', 'contractNad'] as const).flatMap((r): Endpoint[] => {
    const readers: RoleKey[] = r === 'contract' ? ADMIN : ['Admin', 'Zaposleni'];
    const suffix = r === 'contract' ? '' : r.slice('contract'.length);
    const param = r === 'contract' ? ':contractId' : ':id';
    return [
      { method: 'GET', route: `/api/${r}`, url: `/api/${r}?page=1&limit=10`, allowed: readers },
      { method: 'GET', route: `/api/search/${r}`, url: `/api/search/${r}?eng=ugovor`, allowed: readers },
      { method: 'GET', route: `/api/${r}/:id`, url: `/api/${r}/${NO_ID}`, allowed: readers },
      { method: 'POST', route: `/api/${r}`, payload: {}, allowed: ADMIN },
      { method: 'POST', route: `/api/${r}/${r}/:id`, url: `/api/${r}/${r}/${NO_ID}`, payload: {}, allowed: ADMIN },
      { method: 'DELETE', route: `/api/${r}/:id`, url: `/api/${r}/${NO_ID}`, allowed: ADMIN },
      { method: 'GET', route: `/api/files/${r}/:contractId/:fileId`, url: `/api/files/${r}/${NO_ID}/${NO_ID}`, allowed: STAFF },
      { method: 'DELETE', route: `/api/files/${r}/:contractId/:fileId`, url: `/api/files/${r}/${NO_ID}/${NO_ID}`, allowed: ADMIN },
      {
        method: 'PATCH',
        route: `/api/link/location-to-${r}/${param}`,
        url: `/api/link/location-to-${r}/${NO_ID}`,
        payload: {},
        allowed: ADMIN,
      },
      {
        method: 'PATCH',
        route: `/api/link/unlink${suffix}/${param}`,
        url: `/api/link/unlink${suffix}/${NO_ID}`,
        payload: {},
        allowed: ADMIN,
      },
      {
        method: 'GET',
        route: `/api/link/documents${suffix}/location`,
        url: `/api/link/documents${suffix}/location?locationId=${NO_ID}`,
        allowed: STAFF,
      },
    ];
  }),
  { method: 'GET', route: '/api/link/get/autocomplete/locations', url: '/api/link/get/autocomplete/locations?value=zla', allowed: ADMIN },

  // open issues (spec 2 §7 "Topics")
  { method: 'GET', route: '/api/topic', url: '/api/topic?page=1&limit=10&q=kvar&status=otvoren', allowed: STAFF },
  { method: 'GET', route: '/api/topic/grupe', url: `/api/topic/grupe?locationId=${NO_ID}`, allowed: STAFF },
  { method: 'GET', route: '/api/topic/:id', url: `/api/topic/${NO_ID}`, allowed: STAFF },
  { method: 'POST', route: '/api/topic', payload: {}, allowed: STAFF },
  { method: 'PATCH', route: '/api/topic/:id', url: `/api/topic/${NO_ID}`, payload: {}, allowed: STAFF },
  { method: 'DELETE', route: '/api/topic/:id', url: `/api/topic/${NO_ID}`, allowed: STAFF },
  { method: 'POST', route: '/api/topic/:id/komentar', url: `/api/topic/${NO_ID}/komentar`, payload: {}, allowed: STAFF },

  // spreadsheet imports and their templates (spec 2 §7 "Imports")
  { method: 'POST', route: '/api/user/excel-import', payload: {}, allowed: MANAGERS },
  { method: 'POST', route: '/api/naselje/excel-import', payload: {}, allowed: ADMIN },
  { method: 'POST', route: '/api/location/excel-import', payload: {}, allowed: ADMIN },
  { method: 'GET', route: '/api/files/korisnici', url: '/api/files/korisnici/', allowed: MANAGERS },
  { method: 'GET', route: '/api/files/klasteri', url: '/api/files/klasteri/', allowed: ADMIN },
];

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
/** The notifications page /app (spec 3 §6 'Notices'). */
const NOTICES: RoleKey[] = ['Rukovodilac', 'Zaposleni', 'Gost'];
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
  { method: 'POST', route: '/api/user/edit-script', payload: {}, allowed: 'signedIn' },
  { method: 'DELETE', route: '/api/user/my-profile', allowed: 'signedIn' },
  { method: 'POST', route: '/api/user/logout', allowed: 'signedIn' },
  { method: 'POST', route: '/api/user/logout-all', allowed: 'signedIn' },
  { method: 'GET', route: '/api/user/confirm-email', url: '/api/user/confirm-email?code=x', allowed: 'public' },
  { method: 'POST', route: '/api/user/resend-activation', payload: { email: 'niko@primer.rs' }, allowed: 'public' },
  { method: 'GET', route: '/api/smtp/outbox', allowed: ADMIN },
  { method: 'POST', route: '/api/smtp/outbox/release', payload: { ids: [] }, allowed: ADMIN },
  // SMTP servers (spec 3 §7 "SMTP"; docs/api/smtp.md)
  { method: 'GET', route: '/api/smtp', allowed: ADMIN },
  { method: 'POST', route: '/api/smtp', url: '/api/smtp/', payload: {}, allowed: ADMIN },
  { method: 'GET', route: '/api/smtp/:id', url: `/api/smtp/${NO_ID}`, allowed: ADMIN },
  { method: 'PATCH', route: '/api/smtp/:id', url: `/api/smtp/${NO_ID}`, payload: {}, allowed: ADMIN },
  { method: 'DELETE', route: '/api/smtp/:id', url: `/api/smtp/${NO_ID}`, allowed: ADMIN },
  { method: 'POST', route: '/api/smtp/:id/test', url: `/api/smtp/${NO_ID}/test`, payload: {}, allowed: ADMIN },

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
  { method: 'GET', route: '/api/group/sve-videci/true', allowed: STAFF },
  { method: 'GET', route: '/api/group/sve-videci/false', allowed: STAFF },
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
  { method: 'GET', route: '/api/naselje', url: '/api/naselje?page=1&limit=10', allowed: STAFF },
  { method: 'GET', route: '/api/search/naselje', url: '/api/search/naselje?eng=sirogojno', allowed: STAFF },
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
  { method: 'GET', route: '/api/search/location', url: '/api/search/location?eng=zlatibor&activity=A4', allowed: STAFF },
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

  // activity catalogue, notifications and activities in progress (spec 3 §2.2–2.4, §7)
  { method: 'GET', route: '/api/activity/catalogue', allowed: ADMIN },
  { method: 'PATCH', route: '/api/activity/catalogue/:code', url: '/api/activity/catalogue/A99', payload: {}, allowed: ADMIN },
  { method: 'GET', route: '/api/activity/notifications', url: '/api/activity/notifications?page=1&limit=10', allowed: NOTICES },
  {
    method: 'GET',
    route: '/api/search/notification',
    url: '/api/search/notification?eng=kontrola&srb=%D0%BA%D0%BE%D0%BD%D1%82%D1%80%D0%BE%D0%BB%D0%B0',
    allowed: NOTICES,
  },
  { method: 'GET', route: '/api/activity/in-progress', url: '/api/activity/in-progress?page=1&limit=10&boja=red', allowed: ADMIN },

  // the activity workflow, its documents and comments (spec 3 §7 "Activities", "Files", "Comments")
  { method: 'GET', route: '/api/activity/:id', url: `/api/activity/${NO_ID}`, allowed: STAFF },
  { method: 'POST', route: '/api/activity/activity-status', url: '/api/activity/activity-status/', payload: {}, allowed: STAFF },
  { method: 'POST', route: '/api/activity/control', url: '/api/activity/control/', payload: {}, allowed: STAFF },
  { method: 'PATCH', route: '/api/activity/:id', url: `/api/activity/${NO_ID}`, payload: {}, allowed: STAFF },
  {
    method: 'PATCH',
    route: '/api/activity/:type/:locationId/:activityId/:controlFlag/:version/:requiredFlag',
    url: `/api/activity/A1/${NO_ID}/${NO_ID}/false/0/true`,
    payload: {},
    allowed: STAFF,
  },
  {
    method: 'GET',
    route: '/api/files/activity/:locationId/:activityId/:fileId',
    url: `/api/files/activity/${NO_ID}/${NO_ID}/${NO_ID}`,
    allowed: STAFF,
  },
  {
    method: 'DELETE',
    route: '/api/files/activity/:locationId/:activityId/:fileId',
    url: `/api/files/activity/${NO_ID}/${NO_ID}/${NO_ID}`,
    allowed: STAFF,
  },
  { method: 'GET', route: '/api/files/zip', url: `/api/files/zip?activityName=${NO_ID}&directory=${NO_ID}`, allowed: STAFF },
  { method: 'POST', route: '/api/comment/:id', url: `/api/comment/${NO_ID}`, payload: {}, allowed: STAFF },

  // public-authority holders (spec 3 §7): a Zaposleni of a 'ПИУ ТА' group writes too (ijo.test.ts)
  { method: 'GET', route: '/api/ijo', allowed: STAFF },
  { method: 'POST', route: '/api/ijo', payload: {}, allowed: ADMIN },
  { method: 'PATCH', route: '/api/ijo/:id', url: `/api/ijo/${NO_ID}`, payload: {}, allowed: ADMIN },
  { method: 'DELETE', route: '/api/ijo/:id', url: `/api/ijo/${NO_ID}`, allowed: ADMIN },
  // inventory, stocktaking lists and A13 (spec 3 §2.10, §7; docs/api/inventory.md): the Admin and a
  // Zaposleni of a Naručilac group (the table's Zaposleni is not one: inventory.test.ts covers them)
  { method: 'GET', route: '/api/inventory-contract/:id', url: `/api/inventory-contract/${NO_ID}`, allowed: ADMIN },
  { method: 'DELETE', route: '/api/inventory-contract/:id', url: `/api/inventory-contract/${NO_ID}`, allowed: ADMIN },
  {
    method: 'GET',
    route: '/api/files/inventory-contract/:contractId/:fileId',
    url: `/api/files/inventory-contract/${NO_ID}/${NO_ID}`,
    allowed: ADMIN,
  },
  {
    method: 'DELETE',
    route: '/api/files/inventory-contract/:contractId/:fileId',
    url: `/api/files/inventory-contract/${NO_ID}/${NO_ID}`,
    allowed: ADMIN,
  },
  { method: 'GET', route: '/api/inventory/location/:id', url: `/api/inventory/location/${NO_ID}`, allowed: ADMIN },
  {
    method: 'PATCH',
    route: '/api/inventory/location/:id',
    url: `/api/inventory/location/${NO_ID}`,
    payload: { email: '' },
    allowed: ADMIN,
  },
  { method: 'GET', route: '/api/inv-type', url: '/api/inv-type?tip=Oprema', allowed: ADMIN },
  { method: 'POST', route: '/api/inv-type', payload: {}, allowed: ADMIN },
  { method: 'PATCH', route: '/api/inv-type/:id', url: `/api/inv-type/${NO_ID}`, payload: {}, allowed: ADMIN },
  { method: 'DELETE', route: '/api/inv-type/:id', url: `/api/inv-type/${NO_ID}`, allowed: ADMIN },
  { method: 'GET', route: '/api/inventory', url: `/api/inventory?lokacija=${NO_ID}`, allowed: ADMIN },
  { method: 'POST', route: '/api/inventory', payload: {}, allowed: ADMIN },
  { method: 'PATCH', route: '/api/inventory/:id', url: `/api/inventory/${NO_ID}`, payload: {}, allowed: ADMIN },
  { method: 'DELETE', route: '/api/inventory/:id', url: `/api/inventory/${NO_ID}`, allowed: ADMIN },
  { method: 'POST', route: '/api/inventory/import', url: `/api/inventory/import?lokacija=${NO_ID}`, payload: {}, allowed: ADMIN },
  { method: 'GET', route: '/api/inventory/download-template', allowed: ADMIN },
  { method: 'GET', route: '/api/inventory-reports/sve', url: '/api/inventory-reports/sve?page=1&limit=10&eng=a', allowed: ADMIN },
  { method: 'GET', route: '/api/inventory-reports/sumarno/:sort', url: '/api/inventory-reports/sumarno/naziv?tip=Oprema', allowed: ADMIN },
  { method: 'GET', route: '/api/inventory-reports/inventar-po-lokaciji', allowed: ADMIN },
  {
    method: 'GET',
    route: '/api/inventory-reports/popisna-lista',
    url: `/api/inventory-reports/popisna-lista?naziv=${NO_ID}`,
    allowed: ADMIN,
  },
  { method: 'POST', route: '/api/school-notification/:id', url: `/api/school-notification/${NO_ID}`, payload: {}, allowed: ADMIN },
  { method: 'GET', route: '/api/school-notification', allowed: ADMIN },
  { method: 'GET', route: '/api/public/popisna-lista', url: '/api/public/popisna-lista?token=x', allowed: 'public' },
  { method: 'POST', route: '/api/public/popisna-lista/potvrdi', payload: { token: 'x' }, allowed: 'public' },
  // exports of the inventory lists (docs/api/inventory.md "Exports"): the inventory keepers only
  ...[
    'inventory-contracts',
    'inv-types',
    'inventory',
    'inventory-all',
    'inventory-sum',
    'inventory-per-location',
    'school-notifications',
    'a13',
  ].map((name): Endpoint => ({ method: 'GET', route: `/api/export/${name}`, url: `/api/export/${name}?format=xlsx`, allowed: ADMIN })),
  // A13: each path in spec 3 §7's spelling and in the other case
  ...(['A13', 'a13'] as const).flatMap((a): Endpoint[] => [
    { method: 'GET', route: `/api/${a}`, url: `/api/${a}?page=1&limit=10`, allowed: ADMIN },
    { method: 'PATCH', route: `/api/${a}/:id`, url: `/api/${a}/${NO_ID}`, payload: { status: true }, allowed: ADMIN },
    { method: 'GET', route: `/api/${a}/get-all`, allowed: ADMIN },
    { method: 'GET', route: `/api/${a}/get/stats`, allowed: ADMIN },
    { method: 'GET', route: `/api/${a}/download-files`, url: `/api/${a}/download-files?lokId=${NO_ID}`, allowed: ADMIN },
  ]),

  // logs and the comments list (spec 3 §7 "Logs", "Comments")
  { method: 'GET', route: '/api/log', url: '/api/log?page=1&limit=10', allowed: STAFF },
  {
    method: 'GET',
    route: '/api/search/log',
    url: '/api/search/log?eng=prijavio&srb=%D0%BF%D1%80%D0%B8%D1%98%D0%B0%D0%B2%D0%B8%D0%BE',
    allowed: STAFF,
  },
  { method: 'DELETE', route: '/api/log', url: '/api/log/', payload: { logIds: [NO_ID] }, allowed: ADMIN },
  { method: 'GET', route: '/api/comment', url: '/api/comment?page=1&limit=10', allowed: STAFF },
  {
    method: 'GET',
    route: '/api/search/comment',
    url: '/api/search/comment?eng=trasa&srb=%D1%82%D1%80%D0%B0%D1%81%D0%B0',
    allowed: STAFF,
  },
  { method: 'DELETE', route: '/api/comment', url: '/api/comment/', payload: { komentari: [NO_ID] }, allowed: ADMIN },

  // reports and snapshots (spec 3 §2.7, §7 "Reports"; docs/api/reports.md): the snapshot tools also for a
  // sees-all group (reports.test.ts)
  { method: 'GET', route: '/api/report/contracts', allowed: STAFF },
  { method: 'GET', route: '/api/report/summary', url: '/api/report/summary?contract=', allowed: STAFF },
  { method: 'GET', route: '/api/report/progress', url: '/api/report/progress?contract=', allowed: STAFF },
  { method: 'GET', route: '/api/report/finished', url: '/api/report/finished?page=1&limit=10', allowed: STAFF },
  { method: 'GET', route: '/api/report/ijo-takse', url: '/api/report/ijo-takse?contract=&payer=', allowed: STAFF },
  { method: 'GET', route: '/api/report/duzine/:code', url: '/api/report/duzine/A1?page=1&limit=10', allowed: STAFF },
  { method: 'GET', route: '/api/report/snapshots', allowed: STAFF },
  {
    method: 'GET',
    route: '/api/report/compare',
    url: '/api/report/compare?type=summaryReport&dateA=01.01.2025&dateB=2025-01-02',
    allowed: STAFF,
  },
  { method: 'POST', route: '/api/report/backfill-snapshots', url: '/api/report/backfill-snapshots?days=1', allowed: ADMIN },
  { method: 'POST', route: '/api/report/clear-snapshots', allowed: ADMIN },
  { method: 'GET', route: '/api/report/:activity/zip', url: '/api/report/A4/zip', allowed: STAFF },
  { method: 'GET', route: '/api/report/:activity', url: '/api/report/A4?page=1&limit=10', allowed: STAFF },

  // spreadsheet imports and their templates (spec 2 §7 "Imports")
  { method: 'POST', route: '/api/user/excel-import', payload: {}, allowed: MANAGERS },
  { method: 'POST', route: '/api/naselje/excel-import', payload: {}, allowed: ADMIN },
  { method: 'POST', route: '/api/location/excel-import', payload: {}, allowed: ADMIN },
  { method: 'GET', route: '/api/files/korisnici', url: '/api/files/korisnici/', allowed: MANAGERS },
  { method: 'GET', route: '/api/files/klasteri', url: '/api/files/klasteri/', allowed: ADMIN },
  // exports of the lists (issue 10 item 3; docs/api/exports.md): the roles of each list call
  { method: 'GET', route: '/api/export/users', url: '/api/export/users?format=xlsx&eng=a', allowed: MANAGERS },
  { method: 'GET', route: '/api/export/guests', url: '/api/export/guests?format=pdf', allowed: MANAGERS },
  { method: 'GET', route: '/api/export/groups', url: '/api/export/groups?format=xlsx', allowed: MANAGERS },
  { method: 'GET', route: '/api/export/clusters', url: '/api/export/clusters?format=xlsx&eng=zlatibor', allowed: STAFF },
  { method: 'GET', route: '/api/export/settlements', url: '/api/export/settlements?format=xlsx', allowed: MANAGERS },
  { method: 'GET', route: '/api/export/contract', url: '/api/export/contract?format=xlsx', allowed: ADMIN },
  { method: 'GET', route: '/api/export/contractIzv', url: '/api/export/contractIzv?format=xlsx', allowed: ['Admin', 'Zaposleni'] },
  { method: 'GET', route: '/api/export/contractPro', url: '/api/export/contractPro?format=xlsx', allowed: ['Admin', 'Zaposleni'] },
  { method: 'GET', route: '/api/export/contractNad', url: '/api/export/contractNad?format=xlsx', allowed: ['Admin', 'Zaposleni'] },
  { method: 'GET', route: '/api/export/topics', url: '/api/export/topics?format=pdf&status=otvoren', allowed: STAFF },
  { method: 'GET', route: '/api/export/notifications', url: '/api/export/notifications?format=xlsx&eng=a', allowed: NOTICES },
  { method: 'GET', route: '/api/export/in-progress', url: '/api/export/in-progress?format=xlsx&boja=red', allowed: ADMIN },
  { method: 'GET', route: '/api/export/logs', url: '/api/export/logs?format=xlsx&eng=a', allowed: STAFF },
  { method: 'GET', route: '/api/export/comments', url: '/api/export/comments?format=pdf&eng=a', allowed: STAFF },
  { method: 'GET', route: '/api/export/ijo', url: '/api/export/ijo?format=xlsx', allowed: STAFF },
  { method: 'GET', route: '/api/export/roles', url: '/api/export/roles?format=xlsx', allowed: MANAGERS },
  { method: 'GET', route: '/api/export/priorities', url: '/api/export/priorities?format=xlsx', allowed: STAFF },
  { method: 'GET', route: '/api/export/group-types', url: '/api/export/group-types?format=xlsx', allowed: STAFF },
  { method: 'GET', route: '/api/export/report-finished', url: '/api/export/report-finished?format=xlsx', allowed: STAFF },
  { method: 'GET', route: '/api/export/report-summary', url: '/api/export/report-summary?format=pdf&contract=', allowed: STAFF },
  { method: 'GET', route: '/api/export/report-activity', url: '/api/export/report-activity?activity=A4&eng=a', allowed: STAFF },
  { method: 'GET', route: '/api/export/report-ijo', url: '/api/export/report-ijo?contract=&payer=', allowed: STAFF },
  { method: 'GET', route: '/api/export/report-lengths', url: '/api/export/report-lengths?code=A1', allowed: STAFF },
  {
    method: 'GET',
    route: '/api/export/report-compare',
    url: '/api/export/report-compare?type=summaryReport&dateA=01.01.2025&dateB=02.01.2025',
    allowed: STAFF,
  },
];

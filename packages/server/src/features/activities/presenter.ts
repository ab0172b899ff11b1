import {
  ACTIVITY_CATALOGUE,
  type ActivityCommentDto,
  type ActivityDetailResponse,
  type ActivityDto,
  type ActivityFileDto,
  type ActivityPermissions,
  type ActivityStatus,
  activityRevision,
  type ConnectedActivityDto,
  deadlineColour,
  FINISHED,
  IN_PROGRESS,
  isSubActivity,
  KLIZNO,
  NOT_STARTED,
  subActivitiesOf,
} from '@trasa/domain';
import { and, asc, eq, type SQL, sql } from 'drizzle-orm';
import { users } from '../../db/schema.js';
import { activities, activityCatalogue, activityComments, activityFiles } from '../../db/schema-activities.js';
import { clusterSettlements, clusters, contractClusters, contracts, settlements } from '../../db/schema-clusters.js';
import { type Executor, preparedOn } from '../../platform/database.js';
import { notFound } from '../../platform/errors.js';
import type { ClusterScope } from '../clusters/policy.js';
import { isSystem, mayAct, mayDownloadAll, mayReactivate, mayStartA1, type Performer } from './policy.js';
import { type ActivityRow, type CatalogueRow, isAutomatic, podaciOf } from './workflow.js';

/** Shapes of docs/api/activities.md (dto/activities.ts in the domain), built field by field. */

type FileRow = typeof activityFiles.$inferSelect;

/** A file as the answers carry it (presentActivity builds the same in SQL: fajloviJson). */
export function presentFile(f: FileRow): ActivityFileDto {
  return {
    _id: f.id,
    fajl: f.storedName,
    originalnoIme: f.originalnoIme,
    mimetype: f.mimetype,
    size: f.size,
    isRequired: f.isRequired,
    deleted: f.deletedAt !== null,
    revizija: f.revision,
    slot: f.slot,
    createdAt: f.createdAt.toISOString(),
  };
}

const commentColumns = {
  id: activityComments.id,
  komentar: activityComments.komentar,
  createdAt: activityComments.createdAt,
  ime: users.ime,
  prezime: users.prezime,
  email: users.email,
  deletedAt: users.deletedAt,
};

type CommentRow = {
  id: string;
  komentar: string;
  createdAt: Date;
  ime: string | null;
  prezime: string | null;
  email: string | null;
  deletedAt: Date | null;
};

/** A comment as the answers carry it (presentActivity builds the same in SQL: komentariJson). */
export function presentComment(r: CommentRow): ActivityCommentDto {
  return {
    _id: r.id,
    komentar: r.komentar,
    createdAt: r.createdAt.toISOString(),
    // An author who deleted their account (anonymised) or is gone shows as 'Korisnik je obrisan'.
    user: r.ime === null || r.deletedAt !== null ? null : { ime: r.ime, prezime: r.prezime ?? '', email: r.email ?? '' },
  };
}

export async function commentById(db: Executor, id: string): Promise<ActivityCommentDto> {
  const [row] = await db
    .select(commentColumns)
    .from(activityComments)
    .leftJoin(users, eq(users.id, activityComments.userId))
    .where(eq(activityComments.id, id));
  if (!row) throw notFound();
  return presentComment(row);
}

const DAY = 86_400_000;
const dayNumber = (iso: string) => Math.floor(Date.parse(`${iso}T00:00:00Z`) / DAY);

/** Whole days from today to the deadline (negative when late); null unless in progress with a deadline. */
export function daysToDeadline(row: Pick<ActivityRow, 'status' | 'rokZavrsetka'>, today: string): number | null {
  if (row.status !== IN_PROGRESS || !row.rokZavrsetka) return null;
  return dayNumber(row.rokZavrsetka) - dayNumber(today);
}

export function colourOf(row: ActivityRow, entry: Pick<CatalogueRow, 'rok'>, today: string) {
  return deadlineColour(
    {
      inProgress: row.status === IN_PROGRESS,
      finished: row.status === FINISHED,
      start: row.datumPocetka,
      due: row.rokZavrsetka,
      finishedAt: row.datumZavrsetka,
      floating: entry.rok === null,
    },
    new Date(`${today}T12:00:00Z`),
  );
}

export function permissionsOf(p: Performer, scope: Pick<ClusterScope, 'all'>, row: ActivityRow, entry: CatalogueRow): ActivityPermissions {
  return {
    menjanje: row.status === IN_PROGRESS && !isAutomatic(entry) && !isSystem(p) && mayAct(p, entry.odgovoran),
    pokretanje: row.code === 'A1' && row.status === NOT_STARTED && !isSystem(p) && mayStartA1(p),
    reaktivacija: row.status === FINISHED && !isAutomatic(entry) && !isSystem(p) && mayReactivate(p),
    sviFajlovi: mayDownloadAll(p, scope),
  };
}

/** A timestamp as JavaScript's toISOString writes it (UTC, milliseconds, 'Z'), in SQL. */
const isoTime = (column: SQL | typeof activityFiles.createdAt) =>
  sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * What an activity's answer carries besides its record, as JSON built by PostgreSQL in the record's
 * statement (one round trip instead of four): the cluster's own settlements (clusterSettlementsOf's
 * order), its general contract, the activity's live files (presentFile) and comments (presentComment),
 * oldest first.
 */
const naseljaJson = sql<{ _id: string; naziv: string }[]>`(
  select coalesce(json_agg(json_build_object('_id', ${settlements.id}, 'naziv', ${settlements.naziv})
    order by ${clusterSettlements.position}, ${settlements.naziv}), '[]'::json)
  from ${clusterSettlements} join ${settlements} on ${settlements.id} = ${clusterSettlements.settlementId}
  where ${clusterSettlements.clusterId} = ${clusters.id} and not ${clusterSettlements.usputno})`;
const ugovorJson = sql<{ _id: string; naziv: string; broj: string } | null>`(
  select json_build_object('_id', ${contracts.id}, 'naziv', ${contracts.naziv}, 'broj', ${contracts.broj})
  from ${contractClusters} join ${contracts} on ${contracts.id} = ${contractClusters.contractId}
  where ${contractClusters.clusterId} = ${clusters.id} and ${contractClusters.kind} = 'contract' limit 1)`;
const fajloviJson = sql<ActivityFileDto[]>`(
  select coalesce(json_agg(json_build_object('_id', ${activityFiles.id}, 'fajl', ${activityFiles.storedName},
    'originalnoIme', ${activityFiles.originalnoIme}, 'mimetype', ${activityFiles.mimetype}, 'size', ${activityFiles.size},
    'isRequired', ${activityFiles.isRequired}, 'deleted', false, 'revizija', ${activityFiles.revision}, 'slot', ${activityFiles.slot},
    'createdAt', ${isoTime(activityFiles.createdAt)}) order by ${activityFiles.createdAt}, ${activityFiles.id}), '[]'::json)
  from ${activityFiles} where ${activityFiles.activityId} = ${activities.id} and ${activityFiles.deletedAt} is null)`;
const komentariJson = sql<ActivityCommentDto[]>`(
  select coalesce(json_agg(json_build_object('_id', ${activityComments.id}, 'komentar', ${activityComments.komentar},
    'createdAt', ${isoTime(sql`${activityComments.createdAt}`)},
    'user', case when ${users.ime} is null or ${users.deletedAt} is not null then null
      else json_build_object('ime', ${users.ime}, 'prezime', coalesce(${users.prezime}, ''), 'email', coalesce(${users.email}, '')) end)
    order by ${activityComments.createdAt}, ${activityComments.id}), '[]'::json)
  from ${activityComments} left join ${users} on ${users.id} = ${activityComments.userId}
  where ${activityComments.activityId} = ${activities.id})`;

function prepareActivityRecord(db: Executor) {
  return db
    .select({
      row: activities,
      entry: activityCatalogue,
      cluster: clusters,
      naselja: naseljaJson,
      ugovor: ugovorJson,
      fajlovi: fajloviJson,
      komentari: komentariJson,
    })
    .from(activities)
    .innerJoin(activityCatalogue, eq(activityCatalogue.code, activities.code))
    .innerJoin(clusters, eq(clusters.id, activities.clusterId))
    .where(eq(activities.id, sql.placeholder('id')))
    .limit(1)
    .prepare('present_activity');
}

/**
 * The answer's statement, built once per pool (or transaction) as a named prepared statement: it runs
 * after every workflow step and on every detail, and building it (drizzle) and planning it (PostgreSQL)
 * each time cost more than running it (issue 9; like auth.ts's load_active_user).
 */
const activityRecord = new WeakMap<Executor, ReturnType<typeof prepareActivityRecord>>();

/** One activity as ActivityDto for `p` (its permissions), today's colour and days to the deadline. */
export async function presentActivity(
  db: Executor,
  p: Performer,
  scope: Pick<ClusterScope, 'all'>,
  activityId: string,
  today: string,
): Promise<ActivityDto> {
  let prepared = activityRecord.get(db);
  if (!prepared) {
    prepared = prepareActivityRecord(db);
    activityRecord.set(db, prepared);
  }
  const [found] = await prepared.execute({ id: activityId });
  if (!found) throw notFound();
  const { row, entry, cluster, naselja, ugovor, fajlovi, komentari } = found;
  return {
    _id: row.id,
    kratakNaziv: row.code,
    naziv: entry.naziv,
    status: row.status as ActivityStatus,
    version: row.version,
    returned: row.returned,
    revizija: activityRevision(row),
    kontrolna: entry.kontrolna,
    podAktivnost: isSubActivity(row.code),
    podAktivnosti: subActivitiesOf(row.code),
    prethodna: [...entry.prethodna],
    naredna: [...entry.naredna],
    odgovoran: [...entry.odgovoran],
    rok: entry.rok === null ? KLIZNO : entry.rok,
    brojDanaDoRoka: daysToDeadline(row, today),
    datumPocetka: row.datumPocetka,
    datumZavrsetka: row.datumZavrsetka,
    rokZavrsetka: row.rokZavrsetka,
    dokumenta: entry.dokumenta,
    brojFajlova: entry.brojFajlova,
    uputstvo: entry.uputstvo,
    faults: row.faults,
    userFields: { faults: row.faults },
    podaci: podaciOf(row),
    fajlovi,
    komentari,
    lokacija: {
      _id: cluster.id,
      naziv: cluster.naziv,
      naselja,
      indikativnaDuzinaKlastera: cluster.indikativnaDuzinaKlastera,
      ugovorenaVrednostKlastera: cluster.ugovorenaVrednostKlastera,
      ugovor,
    },
    boja: colourOf(row, entry, today),
    dozvole: permissionsOf(p, scope, row, entry),
  };
}

/**
 * The activity's predecessors in the same cluster, with their live files and data (catalogue order);
 * for an activity sent back by a control, also the controls that can send it back, so the remarks
 * (the control's files) are read where the work is redone.
 */
export async function connectedOf(
  db: Executor,
  activity: Pick<ActivityDto, 'prethodna' | 'lokacija' | 'kratakNaziv' | 'returned'>,
): Promise<ConnectedActivityDto[]> {
  const reviewers = activity.returned > 0 ? ACTIVITY_CATALOGUE.filter((e) => e.kontrolise === activity.kratakNaziv).map((e) => e.code) : [];
  const codes = [...new Set([...activity.prethodna, ...reviewers])];
  if (codes.length === 0) return [];
  const rows = await preparedOn(connectedStatement(db), db).execute({ cluster: activity.lokacija._id, codes });
  // A control is shown only once it has sent the activity back (its files are the remarks).
  const shown = rows.filter(({ row }) => activity.prethodna.includes(row.code) || row.faults === true);
  return shown.map(({ row, naziv, fajlovi }) => ({
    _id: row.id,
    kratakNaziv: row.code,
    naziv,
    status: row.status as ActivityStatus,
    fajlovi,
    podaci: podaciOf(row),
  }));
}

/** connectedOf's statement, prepared once: the cluster's records of the given codes with their live files (fajloviJson). */
function prepareConnected(db: Executor) {
  return db
    .select({ row: activities, naziv: activityCatalogue.naziv, fajlovi: fajloviJson })
    .from(activities)
    .innerJoin(activityCatalogue, eq(activityCatalogue.code, activities.code))
    .where(and(eq(activities.clusterId, sql.placeholder('cluster')), sql`${activities.code} = any(${sql.placeholder('codes')}::text[])`))
    .orderBy(asc(activities.position))
    .prepare('activity_connected');
}
let connected: ReturnType<typeof prepareConnected> | undefined;
const connectedStatement = (db: Executor) => {
  connected ??= prepareConnected(db);
  return connected;
};

export async function presentDetail(
  db: Executor,
  p: Performer,
  scope: Pick<ClusterScope, 'all'>,
  activityId: string,
  today: string,
): Promise<ActivityDetailResponse> {
  const activity = await presentActivity(db, p, scope, activityId, today);
  return { activity, connected: await connectedOf(db, activity) };
}

import {
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
import { eq, type SQL, sql } from 'drizzle-orm';
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
/** The live files of the activity whose id is `activityId` (a column or an alias's), oldest first, as presentFile builds them. */
const filesJsonOf = (activityId: SQL | typeof activities.id) => sql<ActivityFileDto[]>`(
  select coalesce(json_agg(json_build_object('_id', ${activityFiles.id}, 'fajl', ${activityFiles.storedName},
    'originalnoIme', ${activityFiles.originalnoIme}, 'mimetype', ${activityFiles.mimetype}, 'size', ${activityFiles.size},
    'isRequired', ${activityFiles.isRequired}, 'deleted', false, 'revizija', ${activityFiles.revision}, 'slot', ${activityFiles.slot},
    'createdAt', ${isoTime(activityFiles.createdAt)}) order by ${activityFiles.createdAt}, ${activityFiles.id}), '[]'::json)
  from ${activityFiles} where ${activityFiles.activityId} = ${activityId} and ${activityFiles.deletedAt} is null)`;
const fajloviJson = filesJsonOf(activities.id);
/**
 * connectedOf in SQL, for the detail's one statement: the cluster's records among the activity's
 * predecessors (the catalogue's `prethodna`), and — once it was sent back (returned > 0) — the controls
 * that check it when they found faults, in catalogue order, each with its data and live files.
 */
const connectedJson = sql<ConnectedActivityDto[]>`(
  select coalesce(json_agg(json_build_object('_id', p.id, 'kratakNaziv', p.code, 'naziv', pc.naziv, 'status', p.status,
    'returned', p.returned, 'fajlovi', ${filesJsonOf(sql`p.id`)},
    'podaci', case when jsonb_typeof(p.podaci) = 'array' then p.podaci else '[]'::jsonb end) order by p.position), '[]'::json)
  from ${activities} p join ${activityCatalogue} pc on pc.code = p.code
  where p.cluster_id = ${activities.clusterId}
    and (p.code = any(${activityCatalogue.prethodna})
      or (${activities.returned} > 0 and pc.kontrolise = ${activities.code} and p.faults is true)))`;
const komentariJson = sql<ActivityCommentDto[]>`(
  select coalesce(json_agg(json_build_object('_id', ${activityComments.id}, 'komentar', ${activityComments.komentar},
    'createdAt', ${isoTime(sql`${activityComments.createdAt}`)},
    'user', case when ${users.ime} is null or ${users.deletedAt} is not null then null
      else json_build_object('ime', ${users.ime}, 'prezime', coalesce(${users.prezime}, ''), 'email', coalesce(${users.email}, '')) end)
    order by ${activityComments.createdAt}, ${activityComments.id}), '[]'::json)
  from ${activityComments} left join ${users} on ${users.id} = ${activityComments.userId}
  where ${activityComments.activityId} = ${activities.id})`;

const recordColumns = {
  row: activities,
  entry: activityCatalogue,
  cluster: clusters,
  naselja: naseljaJson,
  ugovor: ugovorJson,
  fajlovi: fajloviJson,
  komentari: komentariJson,
};

/**
 * An activity's record statement (recordColumns and `connected`: the detail's connected activities, or
 * null), built once at first use and run as the named prepared statement `name` on the pool or a
 * transaction's connection (preparedOn): it runs after every workflow step and on every detail, and
 * building it (drizzle) and planning it (PostgreSQL) each time cost more than running it (issue 9; like
 * auth.ts's load_active_user).
 */
function recordStatement(name: string, connected: SQL<ConnectedActivityDto[]>) {
  const build = (db: Executor) =>
    db
      .select({ ...recordColumns, connected })
      .from(activities)
      .innerJoin(activityCatalogue, eq(activityCatalogue.code, activities.code))
      .innerJoin(clusters, eq(clusters.id, activities.clusterId))
      .where(eq(activities.id, sql.placeholder('id')))
      .limit(1)
      .prepare(name);
  let built: ReturnType<typeof build> | undefined;
  return async (db: Executor, id: string) => {
    built ??= build(db);
    const [found] = await preparedOn(built, db).execute({ id });
    if (!found) throw notFound();
    return found;
  };
}

/** After a workflow step: the record alone (no connected activities to build). */
const activityRecord = recordStatement('present_activity', sql<ConnectedActivityDto[]>`null`);
/** The detail's statement: the answer's and the connected activities (connectedJson) in one. */
const detailRecord = recordStatement('present_detail', connectedJson);

/** One activity as ActivityDto for `p` (its permissions), today's colour and days to the deadline. */
export async function presentActivity(
  db: Executor,
  p: Performer,
  scope: Pick<ClusterScope, 'all'>,
  activityId: string,
  today: string,
): Promise<ActivityDto> {
  return activityDto(await activityRecord(db, activityId), p, scope, today);
}

type RecordRow = Awaited<ReturnType<typeof activityRecord>>;

function activityDto(found: RecordRow, p: Performer, scope: Pick<ClusterScope, 'all'>, today: string): ActivityDto {
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

/** GET /api/activity/:id: the activity and its connected activities, in one prepared statement (present_detail). */
export async function presentDetail(
  db: Executor,
  p: Performer,
  scope: Pick<ClusterScope, 'all'>,
  activityId: string,
  today: string,
): Promise<ActivityDetailResponse> {
  const found = await detailRecord(db, activityId);
  return { activity: activityDto(found, p, scope, today), connected: found.connected };
}

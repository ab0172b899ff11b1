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
import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import { users } from '../../db/schema.js';
import { activities, activityCatalogue, activityComments, activityFiles } from '../../db/schema-activities.js';
import { clusters, contractClusters, contracts } from '../../db/schema-clusters.js';
import type { Executor } from '../../platform/database.js';
import { notFound } from '../../platform/errors.js';
import type { ClusterScope } from '../clusters/policy.js';
import { isSystem, mayAct, mayDownloadAll, mayReactivate, mayStartA1, type Performer } from './policy.js';
import { type ActivityRow, type CatalogueRow, clusterSettlementsOf, isAutomatic, podaciOf } from './workflow.js';

/** Shapes of docs/api/activities.md (dto/activities.ts in the domain), built field by field. */

type FileRow = typeof activityFiles.$inferSelect;

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

/** Live files of the given activities, oldest first, by activity. */
async function filesByActivity(db: Executor, ids: string[]): Promise<Map<string, ActivityFileDto[]>> {
  const map = new Map<string, ActivityFileDto[]>();
  if (ids.length === 0) return map;
  const rows = await db
    .select()
    .from(activityFiles)
    .where(and(inArray(activityFiles.activityId, ids), isNull(activityFiles.deletedAt)))
    .orderBy(asc(activityFiles.createdAt), asc(activityFiles.id));
  for (const r of rows) map.set(r.activityId, [...(map.get(r.activityId) ?? []), presentFile(r)]);
  return map;
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

async function commentsOf(db: Executor, activityId: string): Promise<ActivityCommentDto[]> {
  const rows = await db
    .select(commentColumns)
    .from(activityComments)
    .leftJoin(users, eq(users.id, activityComments.userId))
    .where(eq(activityComments.activityId, activityId))
    .orderBy(asc(activityComments.createdAt), asc(activityComments.id));
  return rows.map(presentComment);
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

export function permissionsOf(p: Performer, scope: ClusterScope, row: ActivityRow, entry: CatalogueRow): ActivityPermissions {
  return {
    menjanje: row.status === IN_PROGRESS && !isAutomatic(entry) && !isSystem(p) && mayAct(p, entry.odgovoran),
    pokretanje: row.code === 'A1' && row.status === NOT_STARTED && !isSystem(p) && mayStartA1(p),
    reaktivacija: row.status === FINISHED && !isAutomatic(entry) && !isSystem(p) && mayReactivate(p),
    sviFajlovi: mayDownloadAll(p, scope),
  };
}

/** The general contract a cluster is under, if any. */
async function generalContractOf(db: Executor, clusterId: string) {
  const [row] = await db
    .select({ id: contracts.id, naziv: contracts.naziv, broj: contracts.broj })
    .from(contractClusters)
    .innerJoin(contracts, eq(contracts.id, contractClusters.contractId))
    .where(and(eq(contractClusters.clusterId, clusterId), eq(contractClusters.kind, 'contract')))
    .limit(1);
  return row ? { _id: row.id, naziv: row.naziv, broj: row.broj } : null;
}

/** One activity as ActivityDto for `p` (its permissions), today's colour and days to the deadline. */
export async function presentActivity(
  db: Executor,
  p: Performer,
  scope: ClusterScope,
  activityId: string,
  today: string,
): Promise<ActivityDto> {
  const [found] = await db
    .select({ row: activities, entry: activityCatalogue, cluster: clusters })
    .from(activities)
    .innerJoin(activityCatalogue, eq(activityCatalogue.code, activities.code))
    .innerJoin(clusters, eq(clusters.id, activities.clusterId))
    .where(eq(activities.id, activityId))
    .limit(1);
  if (!found) throw notFound();
  const { row, entry, cluster } = found;
  const [naselja, ugovor, files, komentari] = await Promise.all([
    clusterSettlementsOf(db, cluster.id),
    generalContractOf(db, cluster.id),
    filesByActivity(db, [row.id]),
    commentsOf(db, row.id),
  ]);
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
    fajlovi: files.get(row.id) ?? [],
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
  const rows = await db
    .select({ row: activities, naziv: activityCatalogue.naziv })
    .from(activities)
    .innerJoin(activityCatalogue, eq(activityCatalogue.code, activities.code))
    .where(and(eq(activities.clusterId, activity.lokacija._id), inArray(activities.code, codes)))
    .orderBy(asc(activities.position));
  // A control is shown only once it has sent the activity back (its files are the remarks).
  const shown = rows.filter(({ row }) => activity.prethodna.includes(row.code) || row.faults === true);
  const files = await filesByActivity(
    db,
    shown.map((r) => r.row.id),
  );
  return shown.map(({ row, naziv }) => ({
    _id: row.id,
    kratakNaziv: row.code,
    naziv,
    status: row.status as ActivityStatus,
    fajlovi: files.get(row.id) ?? [],
    podaci: podaciOf(row),
  }));
}

export async function presentDetail(
  db: Executor,
  p: Performer,
  scope: ClusterScope,
  activityId: string,
  today: string,
): Promise<ActivityDetailResponse> {
  const activity = await presentActivity(db, p, scope, activityId, today);
  return { activity, connected: await connectedOf(db, activity) };
}

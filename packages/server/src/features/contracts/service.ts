import type { Readable } from 'node:stream';
import { asTyped, CONTRACTS, type contractCreateSchema, contractEditSchema, contractFinishIssues, USERS } from '@trasa/domain';
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import { groups, groupTypes } from '../../db/schema.js';
import { contractFiles, contractGroups, contracts } from '../../db/schema-clusters.js';
import { writeLog } from '../../platform/audit.js';
import type { Actor } from '../../platform/auth.js';
import type { Executor } from '../../platform/database.js';
import { badRequest, conflict, notFound, parseOrBadRequest } from '../../platform/errors.js';
import type { Paging } from '../../platform/paging.js';
import { FOREIGN_KEY_VIOLATION, onConstraint } from '../../platform/pgErrors.js';
import { matchCondition, type SearchInput, searchTerms } from '../../platform/textSearch.js';
import { clusterScopeOf } from '../clusters/policy.js';
import { type ContractForm, removeStored } from './form.js';
import type { KindDef } from './kinds.js';
import { contractLineageOf, downloadableContractCondition, isFinished, readableKindCondition } from './policy.js';
import {
  type ContractDto,
  type ContractRow,
  type ContractSorting,
  contractColumns,
  defaultPageOfContracts,
  pageOfContracts,
  presentContract,
  selectContracts,
} from './presenter.js';

export type RequestInfo = { ip: string; url: string };

const invalidGroups = () => badRequest(USERS.invalidOption, { grupe: USERS.invalidOption });
/** A contract in a log sentence: its kind's label, then its typed name and number (asTyped). */
const named = (def: KindDef, c: { naziv: string; broj: string }) => `${def.label} ${asTyped(c.naziv)} (broj ${asTyped(c.broj)})`;

/** The kind, readable by the actor (their contract lineage, read with the request). */
async function kindCondition(db: Executor, def: KindDef, actor: Actor): Promise<SQL> {
  return readableKindCondition(def.kind, await contractLineageOf(db, actor));
}

/** The contracts list's condition (GET /api/{route} and /api/search/{route}, and their export): the kind, readable, searched. */
export async function contractListCondition(
  db: Executor,
  def: KindDef,
  actor: Actor,
  search: { eng?: string; srb?: string },
): Promise<SQL> {
  return and(
    await kindCondition(db, def, actor),
    matchCondition(contracts.searchText, searchTerms({ eng: search.eng ?? '', srb: search.srb ?? '' })),
  ) as SQL;
}

/**
 * GET /api/{route}: newest first (a prepared statement for that order), or as `sort` asks; a Zaposleni
 * the typed contracts of their group (all with sveVideci).
 */
export async function listContracts(ctx: AppContext, actor: Actor, def: KindDef, paging: Paging & ContractSorting) {
  const lineage = await contractLineageOf(ctx.db, actor);
  if (!paging.sort) return defaultPageOfContracts(ctx.db, def.kind, lineage, paging);
  return pageOfContracts(ctx.db, readableKindCondition(def.kind, lineage), paging);
}

/** GET /api/search/{route}: by naziv and broj, folded (either script); nothing typed gives the list. */
export async function searchContracts(ctx: AppContext, actor: Actor, def: KindDef, input: SearchInput & ContractSorting) {
  return pageOfContracts(ctx.db, await contractListCondition(ctx.db, def, actor, input), input);
}

async function contractDto(db: Executor, id: string): Promise<ContractDto> {
  const [row] = await selectContracts(db).where(eq(contracts.id, id)).limit(1);
  if (!row) throw notFound();
  return presentContract(row);
}

/** GET /api/{route}/:id: the same rule as the list; otherwise 404. */
export async function getContract(ctx: AppContext, actor: Actor, def: KindDef, id: string): Promise<ContractDto> {
  const [row] = await selectContracts(ctx.db)
    .where(and(eq(contracts.id, id), await kindCondition(ctx.db, def, actor)))
    .limit(1);
  if (!row) throw notFound();
  return presentContract(row);
}

/**
 * A typed contract's groups: existing, not reserved and of the kind's group type; none is fine (spec 2
 * §5 doesn't require them: the contractor's group may not exist yet, docs/decisions.md). The general
 * contract has none. Otherwise 400 'Niste izabrali validnu opciju' on `grupe`.
 */
async function validGroups(tx: Executor, def: KindDef, ids: readonly string[] | undefined): Promise<string[]> {
  const unique = [...new Set(ids ?? [])];
  if (def.groupType === null) {
    if (unique.length > 0) throw invalidGroups();
    return [];
  }
  if (unique.length === 0) return [];
  const rows = await tx
    .select({ id: groups.id, reserved: groups.reserved, code: groupTypes.code })
    .from(groups)
    .leftJoin(groupTypes, eq(groupTypes.id, groups.typeId))
    .where(inArray(groups.id, unique));
  if (rows.length !== unique.length || rows.some((r) => r.reserved || r.code !== def.groupType)) throw invalidGroups();
  return unique;
}

async function setGroups(tx: Executor, contractId: string, groupIds: string[]): Promise<void> {
  await tx.delete(contractGroups).where(eq(contractGroups.contractId, contractId));
  if (groupIds.length === 0) return;
  // A group deleted meanwhile fails the foreign key: the same answer as a group that never existed.
  await onConstraint(() => tx.insert(contractGroups).values(groupIds.map((groupId) => ({ contractId, groupId }))), {
    [FOREIGN_KEY_VIOLATION]: invalidGroups,
  });
}

/** A contract number as it is compared: lower case, without white space ('12 / 2025' = '12/2025'). */
export const numberKey = (broj: string) => broj.toLowerCase().replace(/\s+/g, '');

/**
 * Contract numbers are unique within their kind, case and spaces aside. No index holds this yet (a later
 * migration adds one on (kind, lower(regexp_replace(broj, '[[:space:]]', '', 'g')))): creating serialises on
 * one lock, so two concurrent saves of one number can't both pass the check. The pattern is a POSIX class,
 * not '\s': in a JavaScript template the backslash is dropped ('\s' is 's'), and the check compared numbers
 * with their letter s removed and their spaces kept (any number with an 's' or a space passed it).
 */
async function assertNumberFree(tx: Executor, def: KindDef, broj: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('trasa:contract-number'))`);
  const [taken] = await tx
    .select({ id: contracts.id })
    .from(contracts)
    .where(and(eq(contracts.kind, def.kind), sql`lower(regexp_replace(${contracts.broj}, '[[:space:]]', '', 'g')) = ${numberKey(broj)}`))
    .limit(1);
  if (taken) throw conflict(CONTRACTS.numberTaken, { broj: CONTRACTS.numberTaken });
}

/** POST /api/{route}: the new contract's id. */
export async function createContract(
  ctx: AppContext,
  actor: Actor,
  def: KindDef,
  input: z.output<typeof contractCreateSchema>,
  req: RequestInfo,
): Promise<string> {
  return ctx.db.transaction(async (tx) => {
    const grupe = await validGroups(tx, def, input.grupe);
    await assertNumberFree(tx, def, input.broj);
    const [row] = await tx
      .insert(contracts)
      .values({ kind: def.kind, naziv: input.naziv, broj: input.broj, datumPocetka: input.datumPocetka, rokTrajanja: input.rokTrajanja })
      .returning({ id: contracts.id });
    if (!row) throw new Error('contract not created');
    await setGroups(tx, row.id, grupe);
    await writeLog(tx, { actor, ...req, message: `Korisnik ${asTyped(actor.email)} je kreirao ${named(def, input)}.` });
    return row.id;
  });
}

/** The contract of this kind, locked for the rest of the transaction; 404 when missing or of another kind. */
async function lockContract(tx: Executor, def: KindDef, id: string): Promise<ContractRow> {
  const [row] = await tx
    .select(contractColumns)
    .from(contracts)
    .where(and(eq(contracts.id, id), eq(contracts.kind, def.kind)))
    .for('update');
  if (!row) throw notFound();
  return row;
}

/** Before a multipart body is read: the contract exists and is not finished (nothing is stored for nothing). */
export async function assertEditable(ctx: AppContext, def: KindDef, id: string): Promise<void> {
  const [row] = await ctx.db
    .select(contractColumns)
    .from(contracts)
    .where(and(eq(contracts.id, id), eq(contracts.kind, def.kind)))
    .limit(1);
  if (!row) throw notFound();
  if (isFinished(row)) throw conflict(CONTRACTS.finished);
}

type EditInput = Omit<z.output<typeof contractEditSchema>, 'grupe'> & { grupe: string[] | undefined };

const EDIT_FIELDS = ['naziv', 'datumPocetka', 'rokTrajanja', 'grupe', 'grupe[]', 'status', 'datumZavrsetka'];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Group ids from a form: anything but ids is not a valid option. */
function checked(values: unknown[]): string[] {
  if (values.some((v) => typeof v !== 'string' || !UUID.test(v))) throw invalidGroups();
  return values as string[];
}

/** `grupe` as a JSON array string, repeated fields (grupe or grupe[]) or one id; undefined when not sent. */
function groupsField(fields: Map<string, string[]>): string[] | undefined {
  if (!fields.has('grupe') && !fields.has('grupe[]')) return undefined;
  const values = [...(fields.get('grupe') ?? []), ...(fields.get('grupe[]') ?? [])].map((v) => v.trim());
  if (values.length === 1) {
    const only = values[0] as string;
    if (only === '') return [];
    if (only.startsWith('[')) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(only);
      } catch {
        throw invalidGroups();
      }
      if (!Array.isArray(parsed)) throw invalidGroups();
      return checked(parsed);
    }
  }
  return checked(values.filter(Boolean));
}

/**
 * The edit of a multipart form, or null for an upload only (none of the edit fields sent). Fields come
 * as strings: rokTrajanja '90'; an empty rokTrajanja or status counts as not given.
 */
function editInput(fields: Map<string, string[]>): EditInput | null {
  if (!EDIT_FIELDS.some((f) => fields.has(f))) return null;
  const first = (name: string) => fields.get(name)?.[0];
  const blankless = (v: string | undefined) => (v === undefined || v.trim() === '' ? undefined : v.trim());
  const grupe = groupsField(fields);
  const parsed = parseOrBadRequest(contractEditSchema, {
    naziv: first('naziv'),
    datumPocetka: first('datumPocetka'),
    rokTrajanja: blankless(first('rokTrajanja')),
    grupe,
    status: blankless(first('status')),
    datumZavrsetka: first('datumZavrsetka'),
  });
  // The schema defaults a missing grupe to []; not sending grupe keeps the groups.
  return { ...parsed, grupe: grupe === undefined ? undefined : parsed.grupe };
}

/**
 * POST /api/{route}/{route}/:id: edits the contract (when its fields are sent) and adds the stored
 * documents, in one transaction. Documents refused one by one (type, size) were never stored and are
 * answered in `odbijeni` by the route; any refusal of the request (a field, a finished contract, a
 * missing contract) removes the files this request stored and changes nothing.
 */
export async function saveContractForm(
  ctx: AppContext,
  actor: Actor,
  def: KindDef,
  id: string,
  form: ContractForm,
  req: RequestInfo,
): Promise<ContractDto> {
  try {
    const input = editInput(form.fields);
    return await ctx.db.transaction(async (tx) => {
      const current = await lockContract(tx, def, id);
      if (isFinished(current)) throw conflict(CONTRACTS.finished);
      const parts: string[] = [];
      let subject = current;
      if (input) {
        const grupe = input.grupe === undefined ? undefined : await validGroups(tx, def, input.grupe);
        const status = input.status ?? current.status;
        let datumZavrsetka = input.datumZavrsetka === undefined ? current.datumZavrsetka : input.datumZavrsetka || null;
        // A contract in progress has no end date.
        if (status === CONTRACTS.statusInProgress) datumZavrsetka = null;
        // Finished needs its end date, not before the start (the form's fields may come one by one).
        const [issue] = contractFinishIssues({ datumPocetka: input.datumPocetka, status, datumZavrsetka });
        if (issue) throw badRequest(issue.message, { [issue.path]: issue.message });
        await tx
          .update(contracts)
          .set({
            naziv: input.naziv,
            datumPocetka: input.datumPocetka,
            rokTrajanja: input.rokTrajanja,
            status,
            datumZavrsetka,
            updatedAt: new Date(),
          })
          .where(eq(contracts.id, id));
        if (grupe) await setGroups(tx, id, grupe);
        subject = { ...current, naziv: input.naziv };
        parts.push(`je izmenio ${named(def, subject)}${current.naziv === input.naziv ? '' : ` (ranije ${asTyped(current.naziv)})`}`);
      }
      if (form.files.length > 0) {
        // One request's documents keep their order (they would all share the transaction's now()).
        const at = Date.now();
        await tx.insert(contractFiles).values(
          form.files.map((f, i) => ({
            createdAt: new Date(at + i),
            contractId: id,
            storedName: f.storedName,
            originalnoIme: f.originalName,
            mimetype: f.mimetype,
            size: f.size,
            uploadedBy: actor.id,
          })),
        );
        const names = form.files.map((f) => asTyped(f.originalName)).join(', ');
        parts.push(input ? `dodao dokumente: ${names}` : `je dodao dokumente na ${named(def, subject)}: ${names}`);
      }
      if (parts.length > 0) await writeLog(tx, { actor, ...req, message: `Korisnik ${asTyped(actor.email)} ${parts.join(' i ')}.` });
      return contractDto(tx, id);
    });
  } catch (err) {
    await removeStored(ctx.files, form.files);
    throw err;
  }
}

/** DELETE /api/{route}/:id: with its links and documents; the stored files go after the commit. */
export async function deleteContract(ctx: AppContext, actor: Actor, def: KindDef, id: string, req: RequestInfo): Promise<string> {
  const stored = await ctx.db.transaction(async (tx) => {
    const current = await lockContract(tx, def, id);
    const files = await tx.select({ storedName: contractFiles.storedName }).from(contractFiles).where(eq(contractFiles.contractId, id));
    await tx.delete(contracts).where(eq(contracts.id, id));
    await writeLog(tx, { actor, ...req, message: `Korisnik ${asTyped(actor.email)} je obrisao ${named(def, current)}.` });
    return files;
  });
  await removeFromDisk(ctx, stored);
  return CONTRACTS.deleted;
}

async function removeFromDisk(ctx: AppContext, stored: { storedName: string }[]): Promise<void> {
  for (const f of stored) {
    // The rows are gone; a file that cannot be removed now is only an orphan on disk.
    await ctx.files.remove(f.storedName).catch((err) => ctx.log.error({ err, storedName: f.storedName }, 'stored file not removed'));
  }
}

export type Download = { stream: Readable; originalnoIme: string; mimetype: string; size: number };

/**
 * GET /api/files/{route}/:contractId/:fileId: Admin, or whoever sees the contract or a cluster linked
 * to it. A file of another contract, or a contract out of sight, is 404.
 */
export async function openDocument(ctx: AppContext, actor: Actor, def: KindDef, contractId: string, fileId: string): Promise<Download> {
  const scope = await clusterScopeOf(ctx.db, actor);
  const [row] = await ctx.db
    .select({
      storedName: contractFiles.storedName,
      originalnoIme: contractFiles.originalnoIme,
      mimetype: contractFiles.mimetype,
      size: contractFiles.size,
    })
    .from(contractFiles)
    .innerJoin(contracts, eq(contracts.id, contractFiles.contractId))
    .where(
      and(
        eq(contractFiles.id, fileId),
        eq(contractFiles.contractId, contractId),
        eq(contracts.kind, def.kind),
        downloadableContractCondition(scope),
      ),
    )
    .limit(1);
  if (!row || !(await ctx.files.exists(row.storedName))) throw notFound();
  return { stream: ctx.files.open(row.storedName), originalnoIme: row.originalnoIme, mimetype: row.mimetype, size: row.size };
}

/** DELETE /api/files/{route}/:contractId/:fileId: refused for a finished contract; the file goes after the commit. */
export async function deleteDocument(
  ctx: AppContext,
  actor: Actor,
  def: KindDef,
  contractId: string,
  fileId: string,
  req: RequestInfo,
): Promise<string> {
  const removed = await ctx.db.transaction(async (tx) => {
    const current = await lockContract(tx, def, contractId);
    if (isFinished(current)) throw conflict(CONTRACTS.finished);
    const [file] = await tx
      .delete(contractFiles)
      .where(and(eq(contractFiles.id, fileId), eq(contractFiles.contractId, contractId)))
      .returning({ storedName: contractFiles.storedName, originalnoIme: contractFiles.originalnoIme });
    if (!file) throw notFound();
    await writeLog(tx, {
      actor,
      ...req,
      message: `Korisnik ${asTyped(actor.email)} je obrisao dokument ${asTyped(file.originalnoIme)} sa ugovora ${named(def, current)}.`,
    });
    return file;
  });
  await removeFromDisk(ctx, [removed]);
  return CONTRACTS.fileDeleted;
}

import {
  ACTIVITIES,
  type ActivityState,
  allowedDataKeys,
  asTyped,
  checkDataItem,
  DATA_KEYS,
  type DataItem,
  dataLabel,
  holderIds,
  IN_PROGRESS,
} from '@trasa/domain';
import { badRequest, conflict, forbidden } from '../../platform/errors.js';
import { type ActivityOptions, assertSameState, isUuid, mayAct, type Performer } from './policy.js';
import { audit, type StepResult, step, type WorkflowDeps } from './service.js';
import { type ClusterWorkflow, clusterSettlementsOf, holderItems, holderNames, podaciOf } from './workflow.js';

/** A data item as a client sends it (PATCH /api/activity/:id). */
export type DataInput = { key: string; naziv?: string; vrednost?: string | number | null; ref?: string | null };

const refused = (field: string, message: string) => badRequest(message, { [field]: message });

/** The same item: same key and ref; an additional fee by its name. */
function sameItem(a: DataItem, b: DataItem): boolean {
  if (a.key !== b.key) return false;
  if (a.key === DATA_KEYS.extraFee) return a.naziv.trim().toLowerCase() === b.naziv.trim().toLowerCase();
  return (a.ref ?? null) === (b.ref ?? null);
}

function upsert(list: DataItem[], item: DataItem): void {
  const i = list.findIndex((d) => sameItem(d, item));
  if (i >= 0) list[i] = item;
  else list.push(item);
}

function remove(list: DataItem[], item: DataItem): void {
  const i = list.findIndex((d) => sameItem(d, item));
  if (i >= 0) list.splice(i, 1);
}

function idList(value: string): string[] {
  return [
    ...new Set(
      value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
}

/**
 * The items after the checks that need the database: A1's route length per settlement of the cluster;
 * A6.1's holders (existing ones; their names are set by the server); A7's done marks and fees of holders
 * on A7's list. Returns the stored item, or null to remove it.
 */
async function resolveItem(
  wf: ClusterWorkflow,
  code: string,
  current: DataItem[],
  input: DataInput,
): Promise<{ item: DataItem; remove: boolean }> {
  const key = input.key;
  const raw = input.vrednost === null || input.vrednost === undefined ? '' : String(input.vrednost);
  const naziv = (input.naziv ?? '').trim();
  let ref: string | undefined;
  let label = naziv || dataLabel(code, key);

  if (key === DATA_KEYS.routeLength && code === 'A1') {
    const settlement = (await clusterSettlementsOf(wf.tx, wf.cluster.id)).find((s) => s._id === input.ref);
    if (!settlement) throw refused(key, ACTIVITIES.unknownSettlement);
    ref = settlement._id;
    label = settlement.naziv;
  }
  if (key === DATA_KEYS.a7Fee) {
    const holders = holderIds(current);
    if (!input.ref || !holders.includes(input.ref)) throw refused(key, ACTIVITIES.unknownHolder);
    ref = input.ref;
    label = (await holderNames(wf.tx, [ref])).get(ref) ?? label;
  }

  const base: DataItem = { key, naziv: key === DATA_KEYS.extraFee ? naziv : label, vrednost: '', ...(ref && { ref }) };
  if (raw.trim() === '') return { item: base, remove: true };

  if (key === DATA_KEYS.a7Checked) {
    const ids = idList(raw);
    const holders = holderIds(current);
    if (ids.some((id) => !holders.includes(id))) throw refused(key, ACTIVITIES.unknownHolder);
    return { item: { ...base, vrednost: ids.join(',') }, remove: false };
  }
  const checked = checkDataItem(code, { key, naziv: base.naziv, vrednost: raw }, wf.today);
  if (!checked.ok) {
    // A name the message quotes is typed (a holder's, a settlement's, the one sent), unless it is the item's own label.
    const named = base.naziv.trim();
    const typed = named !== '' && named !== dataLabel(code, key) && checked.message === ACTIVITIES.numberFor(named);
    throw refused(checked.field, typed ? ACTIVITIES.numberFor(asTyped(named)) : checked.message);
  }
  return { item: { ...base, vrednost: checked.vrednost }, remove: false };
}

/**
 * PATCH /api/activity/:id: saves data items on an activity in progress (a responsible Zaposleni; 403 /
 * 409 otherwise). Each item replaces the stored one with the same key and ref (an additional fee: the
 * same name); an empty vrednost removes it. Keys the code doesn't take are refused (400). A6.1's holder
 * list (Ijos) must name existing holders; the server sets IjoNazivi and copies the list into the
 * cluster's A7 (even before A7 starts). Nothing is saved when any item is refused. With `stanje` (the
 * state the change was made on) a stale one is refused with 409 and the reason (policy.ts assertSameState).
 */
export async function saveActivityData(
  deps: WorkflowDeps,
  p: Performer,
  activityId: string,
  podaci: readonly DataInput[],
  opts?: ActivityOptions,
  stanje?: ActivityState,
): Promise<StepResult> {
  return step(deps, p, activityId, opts, async (wf, code) => {
    const entry = wf.entry(code);
    if (!mayAct(p, entry.odgovoran)) throw forbidden(ACTIVITIES.notResponsible);
    assertSameState(wf.row(code), stanje);
    if (wf.row(code).status !== IN_PROGRESS) throw conflict(ACTIVITIES.notInProgress);
    if (podaci.length === 0) return;
    const allowed = allowedDataKeys(code);
    for (const item of podaci) if (!allowed.includes(item.key)) throw refused(item.key, ACTIVITIES.keyNotAllowed(asTyped(item.key)));

    const list = [...podaciOf(wf.row(code))];
    let holdersChanged = false;
    for (const input of podaci) {
      if (input.key === DATA_KEYS.holderNames) continue; // follows Ijos
      if (input.key === DATA_KEYS.holders) {
        const raw = input.vrednost === null || input.vrednost === undefined ? '' : String(input.vrednost);
        const ids = idList(raw);
        if (ids.some((id) => !isUuid(id))) throw refused(input.key, ACTIVITIES.unknownHolder);
        const names = await holderNames(wf.tx, ids, true);
        if (names.size !== ids.length) throw refused(input.key, ACTIVITIES.unknownHolder);
        for (const item of list.filter((d) => d.key === DATA_KEYS.holders || d.key === DATA_KEYS.holderNames)) remove(list, item);
        if (ids.length > 0) list.push(...holderItems(ids, names));
        holdersChanged = true;
        continue;
      }
      const { item, remove: drop } = await resolveItem(wf, code, list, input);
      if (drop) remove(list, item);
      else upsert(list, item);
    }
    wf.patch(code, { podaci: list });
    if (holdersChanged && code === 'A6.1') await wf.copyHoldersToA7();
    // The fields by their labels (product words, shown in the reader's script), not by their keys.
    const fields = [...new Set(podaci.map((d) => dataLabel(code, d.key)))].join(', ');
    audit(wf, p, `sačuvao podatke (${fields}) aktivnosti ${asTyped(code)} na klasteru ${asTyped(wf.cluster.naziv)}`, opts);
  });
}

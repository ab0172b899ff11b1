/**
 * Names the product ships that reach the web as data — from the API or the domain's tables — shown in the
 * user's script (docs/decisions.md "One script at a time"): one function per kind, called where the name
 * is shown. What people typed stays as typed, so a kind the users extend (group types, roles) converts
 * only the names the product shipped; a type or role the Admin added or renamed reads as written. The
 * values themselves (sent back, compared, used in file names) are never changed.
 */
import { A20_TEST_TYPES, DATA_KEYS, type DataItem, DEFAULT_GROUP_TYPES, ROLE_KEYS } from '@trasa/domain';
import { dataLabel } from './messages';
import { inScript } from './script';

/**
 * A text of the activity catalogue (an activity's naziv, its documents' description, its instructions):
 * the catalogue is the product's, A1 to A27.1, so its texts read in the user's script even after the
 * Admin edited them on /app/aktivnosti (whose edit dialog shows them as stored).
 */
export function catalogueText(text: string): string {
  return inScript(text);
}

/** An activity as lists and headings name it: 'A4.1 - Контрола ИДР'. */
export function activityTitle(activity: { kratakNaziv: string; naziv: string }, separator = ' - '): string {
  return `${activity.kratakNaziv}${separator}${catalogueText(activity.naziv)}`;
}

const SHIPPED_TYPE_NAMES = new Set(DEFAULT_GROUP_TYPES.flatMap((t) => [t.naziv, t.kratakNaziv]));

/** A group type's name or short name: a built-in type's in the user's script, one the Admin named as written. */
export function groupTypeName(name: string): string {
  return SHIPPED_TYPE_NAMES.has(name) ? inScript(name) : name;
}

const SHIPPED_ROLE_NAMES = new Set<string>(ROLE_KEYS);

/** A role's name: the four built-in roles' in the user's script ('Запослени'), one the Admin named as written. */
export function roleName(name: string): string {
  return SHIPPED_ROLE_NAMES.has(name) ? inScript(name) : name;
}

/** A role's short name: a built-in role's ('ЗАП') in the user's script, one the Admin named as written. */
export function roleShortName(role: { kratakNaziv: string; ugradjena: boolean }): string {
  return role.ugradjena ? inScript(role.kratakNaziv) : role.kratakNaziv;
}

/** A20's test types (spec 3 §4), in the user's script; `slot` is the file's slot, 1–5. */
export function testTypeName(slot: number | string): string | undefined {
  const name = A20_TEST_TYPES[Number(slot) - 1];
  return name === undefined ? undefined : inScript(name);
}

/** A20's five test types, in the user's script. */
export function testTypeNames(): string[] {
  return A20_TEST_TYPES.map((name) => inScript(name));
}

/**
 * A data item's name: the label of its key, in the user's script; an item about something typed (an
 * additional fee, a holder's fee, a settlement's route length) adds the name it carries, as stored.
 */
export function dataItemName(code: string, item: Pick<DataItem, 'key' | 'naziv' | 'ref'>): string {
  const label = dataLabel(code, item.key);
  if ((item.key === DATA_KEYS.routeLength && item.ref) || item.key === DATA_KEYS.extraFee || item.key === DATA_KEYS.a7Fee)
    return item.naziv ? `${label}: ${item.naziv}` : label;
  return item.naziv ? inScript(item.naziv) : label;
}

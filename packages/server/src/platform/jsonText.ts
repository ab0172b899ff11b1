import { type SQL, sql } from 'drizzle-orm';
import { sqlLiteral } from './sqlText.js';

/**
 * JSON text built in SQL for answers sent as they come (GET /api/location, GET /api/group): compact and
 * with keys in the order given, as JSON.stringify writes them. json_build_object and json_agg write
 * ' : ', ', ' and line breaks between the parts (a tenth more bytes on a picker's answer).
 */

/** An object from constant keys and SQL values that are already JSON texts (jsonValue for plain values); never SQL null. */
export function jsonObject(entries: readonly (readonly [string, SQL])[]): SQL {
  const parts = entries.map(([key, value], i) => sql`${sqlLiteral(`${i === 0 ? '{' : ','}${JSON.stringify(key)}:`)} || ${value}`);
  return sql`(${sql.join(parts, sql` || `)} || '}')`;
}
/** Every key of `Dto` (none missing, none other: the compiler checks an object literal) and its JSON text in SQL. */
export type JsonFields<Dto> = { [K in keyof Dto]-?: SQL };
/**
 * An object of type `Dto` as JSON text (jsonObject): the keys in the order written (a test compares the
 * text with JSON.stringify of the presenter's answer).
 */
export function jsonFields<Dto>(fields: JsonFields<Dto>): SQL {
  return jsonObject(Object.entries(fields) as [string, SQL][]);
}
/** A value as JSON text (SQL null: JSON null). */
export const jsonValue = (value: SQL) => sql`coalesce(to_json(${value})::text, 'null')`;
/** A uuid, date or boolean as JSON text: its text needs no escaping (cheaper than to_json on 1,000 rows). */
export const jsonPlain = (value: SQL) => sql`coalesce('"' || (${value})::text || '"', 'null')`;
/** A boolean or integer as JSON text (SQL null: JSON null). */
export const jsonLiteral = (value: SQL) => sql`coalesce((${value})::text, 'null')`;
/** An aggregate of JSON texts as an array's text, in `orderBy`; '[]' for no rows. */
export const jsonArrayAgg = (element: SQL, orderBy: SQL) =>
  sql`('[' || coalesce(string_agg(${element}, ',' order by ${orderBy}), '') || ']')`;

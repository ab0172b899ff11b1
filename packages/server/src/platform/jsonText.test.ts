import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { jsonFields, jsonValue } from './jsonText.js';

type Ref = { _id: string; naziv: string | null };

describe('an object typed against its DTO (jsonFields)', () => {
  it('writes the keys in the order given; the compiler refuses a missing or an unknown key', () => {
    const built = new PgDialect().sqlToQuery(jsonFields<Ref>({ _id: jsonValue(sql`a`), naziv: jsonValue(sql`b`) })).sql;
    expect(built).toBe(`(E'{"_id":' || coalesce(to_json(a)::text, 'null') || E',"naziv":' || coalesce(to_json(b)::text, 'null') || '}')`);
    // @ts-expect-error naziv is missing
    jsonFields<Ref>({ _id: sql`a` });
    // @ts-expect-error nazivv is not a key of Ref
    jsonFields<Ref>({ _id: sql`a`, naziv: sql`b`, nazivv: sql`c` });
  });
});

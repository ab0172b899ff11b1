import fc from 'fast-check';
import { minimalPdf } from '../seed/demoContracts.js';
import type { JsonSchema, Operation, Parameter } from './openapi.js';

/**
 * fast-check arbitraries of requests built from an operation of the OpenAPI document: each parameter
 * and body field is left out, given a value its schema accepts (boundaries included: empty, exactly the
 * longest, the smallest and largest number), or a hostile one (one past a boundary, the wrong type,
 * injection and path strings, odd Unicode, huge numbers). Bodies are sometimes not objects at all or
 * not JSON; upload routes get multipart bodies with fields and files of any kind, broken ones included.
 */
export type Pools = {
  /** Ids that name existing records (users, clusters, contracts, files, …) — requests reach real data. */
  ids: readonly string[];
  /** The ids of the records a route is about (its path names them: topic → topics, location → clusters). */
  idsFor?: (path: string) => readonly string[];
  /** Values of path parameters that are not ids (activity codes, contract kinds, flags). */
  words: readonly string[];
  /** Field names for multipart bodies and stray properties (every property the document names). */
  fieldNames: readonly string[];
};

export type FuzzRequest = {
  method: Operation['method'];
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
};

const HOSTILE_STRINGS = [
  '',
  ' ',
  '\t\n',
  'null',
  'undefined',
  'true',
  '0',
  '-1',
  '1e309',
  'NaN',
  "' or '1'='1",
  '"; drop table users; --',
  '<script>alert(1)</script>',
  '../../../etc/passwd',
  '..%2f..%2fapp-secret',
  '%00',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, meant literally
  '${7*7}{{7*7}}',
  'ćčžšđ ЋЧЖШЂ љњџ',
  '🙂🙂🙂',
  '\u202egpj.exe',
  'e\u0301',
  '\uFEFFa',
  '{"a":1}',
  '[]',
  '2024-02-30',
  '0000-00-00',
  '9999-12-31',
  '1970-01-01T00:00:00Z',
  '2100-01-01T00:00:00.000+14:00',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  'FFFFFFFF-FFFF-4FFF-BFFF-FFFFFFFFFFFF',
  '00000000-0000-4000-8000-00000000000',
  'admin@trasa.local',
  'A'.repeat(257),
  'ž'.repeat(5001),
];

const HOSTILE_NUMBERS = [
  0,
  -0,
  -1,
  1,
  0.5,
  -0.5,
  2 ** 31 - 1,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 53 + 1,
  -(2 ** 53) - 1,
  1e21,
  1e308,
  Number.MIN_VALUE,
];

const OMIT = Symbol('omit');

const typeOf = (s: JsonSchema): string | undefined => (Array.isArray(s.type) ? s.type[0] : s.type);

function patternArb(pattern: string): fc.Arbitrary<string> | undefined {
  try {
    return fc.stringMatching(new RegExp(pattern), { size: 'xsmall' });
  } catch {
    return undefined;
  }
}

/** A value the schema accepts, boundaries included. */
function validArb(s: JsonSchema, pools: Pools, depth: number): fc.Arbitrary<unknown> {
  const choices = s.anyOf ?? s.oneOf;
  if (choices?.length) {
    const arbs = choices.map((c) => validArb(c, pools, depth));
    return s.nullable ? fc.oneof(fc.constant(null), ...arbs) : fc.oneof(...arbs);
  }
  if (s.allOf?.length) return validArb(Object.assign({}, ...s.allOf), pools, depth);
  const base = validBare(s, pools, depth);
  return s.nullable ? fc.oneof({ weight: 1, arbitrary: fc.constant(null) }, { weight: 4, arbitrary: base }) : base;
}

function validBare(s: JsonSchema, pools: Pools, depth: number): fc.Arbitrary<unknown> {
  if (s.enum?.length) return fc.constantFrom(...s.enum);
  switch (typeOf(s)) {
    case 'string': {
      if (s.format === 'uuid')
        return fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...pools.ids) }, { weight: 1, arbitrary: fc.uuid() });
      const matching = s.pattern ? patternArb(s.pattern) : undefined;
      if (matching) return matching;
      const min = s.minLength ?? 0;
      const max = s.maxLength ?? 300;
      return fc.oneof(
        fc.string({ minLength: min, maxLength: Math.min(max, Math.max(min, 30)) }),
        fc.string({ unit: 'grapheme', minLength: min, maxLength: Math.min(max, Math.max(min, 12)) }),
        fc.constant('a'.repeat(min)),
        fc.constant('ž'.repeat(max)),
        fc.constantFrom(...pools.words),
      );
    }
    case 'integer':
    case 'number': {
      const lo = s.minimum ?? -(2 ** 31);
      const hi = s.maximum ?? 2 ** 31 - 1;
      const ints = fc.integer({ min: Math.ceil(Math.max(lo, -(2 ** 31))), max: Math.floor(Math.min(hi, 2 ** 31 - 1)) });
      const edges = fc.constantFrom(...[lo, hi, 0, 1].filter((n) => n >= lo && n <= hi));
      return typeOf(s) === 'integer'
        ? fc.oneof(ints, edges)
        : fc.oneof(ints, edges, fc.double({ min: lo, max: hi, noNaN: true, noDefaultInfinity: true }));
    }
    case 'boolean':
      return fc.boolean();
    case 'array': {
      const item = s.items ?? {};
      const max = Math.min(s.maxItems ?? 5, 5);
      return fc.array(depth > 3 ? fc.constant(null) : validArb(item, pools, depth + 1), {
        minLength: Math.min(s.minItems ?? 0, max),
        maxLength: max,
      });
    }
    case 'object':
      return depth > 3 ? fc.constant({}) : objectArb(s, pools, depth + 1);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** A value the schema refuses, or one at the edge of what it accepts. */
function hostileArb(s: JsonSchema, pools: Pools): fc.Arbitrary<unknown> {
  const past: unknown[] = [];
  const t = typeOf(s);
  if (t === 'string') {
    if (s.maxLength !== undefined) past.push('x'.repeat(s.maxLength + 1), 'ж'.repeat(s.maxLength + 1));
    if (s.minLength) past.push('x'.repeat(s.minLength - 1));
    past.push(12345, true, ['a'], { a: 'b' });
  }
  if (t === 'number' || t === 'integer') {
    if (s.minimum !== undefined) past.push(s.minimum - 1, s.minimum - 0.5);
    if (s.maximum !== undefined) past.push(s.maximum + 1, s.maximum + 0.5);
    past.push(...HOSTILE_NUMBERS, '1', '1e3', 'abc', '');
  }
  if (t === 'array') {
    if (s.maxItems !== undefined) past.push(Array.from({ length: s.maxItems + 1 }, () => pools.ids[0] ?? 'x'));
    past.push([], 'a', { 0: 'a' }, [null], [[[]]]);
  }
  if (t === 'object') past.push([], 'a', 1, { '': null });
  if (t === 'boolean') past.push('true', 'false', 0, 1, 'da');
  if (s.enum) past.push(...s.enum.map((v) => (typeof v === 'string' ? v.toUpperCase() : v)), `${String(s.enum[0])} `);
  const arbs: fc.Arbitrary<unknown>[] = [fc.constantFrom(...HOSTILE_STRINGS), fc.constantFrom(null, {}, [], -1, 1e308, '')];
  if (past.length) arbs.push(fc.constantFrom(...past));
  arbs.push(fc.jsonValue({ maxDepth: 2 }));
  return fc.oneof(...arbs);
}

function valueArb(s: JsonSchema, pools: Pools, depth = 0): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 3, arbitrary: validArb(s, pools, depth) }, { weight: 2, arbitrary: hostileArb(s, pools) });
}

const STRAY_KEYS = ['__proto__', 'constructor', 'prototype', 'id', 'createdAt', 'deletedAt', 'roleId', 'baseRole', 'admin', 'tokenVersion'];

/** An object of the schema's properties, each one left out, valid or hostile, sometimes with stray keys. */
function objectArb(s: JsonSchema, pools: Pools, depth = 0): fc.Arbitrary<Record<string, unknown>> {
  const props = Object.entries(s.properties ?? {});
  const fields = fc.tuple(
    ...props.map(([, p]) =>
      fc.oneof({ weight: 1, arbitrary: fc.constant<unknown>(OMIT) }, { weight: 5, arbitrary: valueArb(p, pools, depth) }),
    ),
  );
  const stray = fc.option(fc.tuple(fc.constantFrom(...STRAY_KEYS, ...pools.fieldNames), fc.jsonValue({ maxDepth: 1 })), { freq: 6 });
  return fc.tuple(fields, stray).map(([values, extra]) => {
    const out: Record<string, unknown> = {};
    props.forEach(([name], i) => {
      if (values[i] !== OMIT) out[name] = values[i];
    });
    // defineProperty: '__proto__' becomes an own key that JSON.stringify writes out.
    if (extra) Object.defineProperty(out, extra[0], { value: extra[1], enumerable: true, configurable: true, writable: true });
    return out;
  });
}

const BROKEN_JSON = ['{', '{"a":', 'nul', '[1,2', '"x"', '{"a":1}{"b":2}', '\u00ff\u00fe', '{"a":"\\x"}', '1'.repeat(400), '{"a":1,}'];

/** A JSON body: mostly an object of the schema, sometimes any JSON value or not JSON at all. */
export function jsonBodyArb(schema: JsonSchema | undefined, pools: Pools): fc.Arbitrary<{ payload: string; contentType: string }> {
  const shaped = schema
    ? objectArb(schema, pools)
    : fc.dictionary(fc.constantFrom(...pools.fieldNames), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 });
  const text = fc.oneof(
    { weight: 8, arbitrary: shaped.map((o) => JSON.stringify(o)) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v) ?? 'null') },
    { weight: 1, arbitrary: fc.constantFrom(...BROKEN_JSON) },
  );
  const contentType = fc.constantFrom(
    'application/json',
    'application/json',
    'application/json',
    'application/json; charset=utf-8',
    'text/plain',
    'application/x-www-form-urlencoded',
  );
  return fc.record({ payload: text, contentType });
}

const PDF = minimalPdf(['Fuzz']);
const FILE_NAMES = [
  'a.pdf',
  'b.docx',
  'c.doc',
  'd.xlsx',
  'e.csv',
  'f.xls',
  'g.exe',
  '../../x.pdf',
  '',
  '.pdf',
  'a.pdf.exe',
  `${'x'.repeat(300)}.pdf`,
  'ć ž.pdf',
  'a%22b.pdf',
  'slika.jpg',
  'plan.dwg',
  'trasa.kmz',
];
const FILE_FIELDS = ['file', 'files', 'dokument', 'dokumenta', 'fajl', 'fajlovi', 'documents'];

const fileContent = fc.oneof(
  fc.constant(PDF),
  fc.uint8Array({ maxLength: 512 }).map((a) => Buffer.from(a)),
  fc.constant(Buffer.from('ime,prezime,email\nPera,Perić,pera.fuzz@primer.rs\n')),
  fc.uint8Array({ maxLength: 64 }).map((a) => Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.from(a)])),
  fc.uint8Array({ maxLength: 64 }).map((a) => Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.from(a)])),
  fc.constant(Buffer.alloc(0)),
);

type Part =
  | { kind: 'field'; name: string; value: string }
  | { kind: 'file'; name: string; filename: string; content: Buffer; type: string };

/** A multipart body of fields and files; sometimes cut short or with a boundary that never comes. */
export function multipartArb(pools: Pools): fc.Arbitrary<{ payload: Buffer; contentType: string }> {
  const field = fc.record({
    kind: fc.constant('field' as const),
    name: fc.constantFrom(...pools.fieldNames),
    value: fc.oneof(
      fc.constantFrom(...HOSTILE_STRINGS),
      fc.constantFrom(...pools.ids),
      fc.constantFrom(...pools.words),
      fc.string({ maxLength: 20 }),
    ),
  });
  const file = fc.record({
    kind: fc.constant('file' as const),
    name: fc.constantFrom(...FILE_FIELDS),
    filename: fc.constantFrom(...FILE_NAMES),
    content: fileContent,
    type: fc.constantFrom('application/pdf', 'application/octet-stream', 'text/csv', 'image/png'),
  });
  const parts = fc.array(fc.oneof(field as fc.Arbitrary<Part>, file as fc.Arbitrary<Part>), { maxLength: 6 });
  return fc.record({ parts, ending: fc.constantFrom('ok', 'ok', 'ok', 'cut', 'none', 'other-boundary') }).map(({ parts: list, ending }) => {
    const boundary = '----trasafuzz7MA4YWxkTrZu0gW';
    const chunks: Buffer[] = [];
    for (const p of list) {
      const head =
        p.kind === 'field'
          ? `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"\r\n\r\n`
          : `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"; filename="${p.filename}"\r\nContent-Type: ${p.type}\r\n\r\n`;
      chunks.push(Buffer.from(head), p.kind === 'field' ? Buffer.from(p.value) : p.content, Buffer.from('\r\n'));
    }
    if (ending === 'ok') chunks.push(Buffer.from(`--${boundary}--\r\n`));
    let payload = Buffer.concat(chunks);
    if (ending === 'cut') payload = payload.subarray(0, Math.floor(payload.length / 2));
    const contentType = `multipart/form-data; boundary=${ending === 'other-boundary' ? 'nothere' : boundary}`;
    return { payload, contentType };
  });
}

function paramValueArb(p: Parameter, pools: Pools): fc.Arbitrary<string> {
  const idLike = p.schema.format === 'uuid' || /id$/i.test(p.name);
  const sane = idLike
    ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...pools.ids) }, { weight: 1, arbitrary: fc.uuid() })
    : fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...pools.words) }, { weight: 1, arbitrary: fc.constantFrom(...pools.ids) });
  return fc.oneof(
    { weight: 4, arbitrary: sane },
    { weight: 1, arbitrary: fc.constantFrom(...HOSTILE_STRINGS.filter((s) => s !== '' && s.length < 300)) },
    { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 40 }) },
  );
}

function queryValue(v: unknown): string {
  return typeof v === 'string' ? v : (JSON.stringify(v) ?? '');
}

/** The query string: each parameter left out, valid, hostile or repeated; sometimes a stray one. */
function queryArb(params: Parameter[], pools: Pools): fc.Arbitrary<string> {
  const each = params.map((p) =>
    fc.oneof(
      { weight: 2, arbitrary: fc.constant<string[]>([]) },
      {
        weight: 5,
        arbitrary: valueArb(p.schema, pools).map((v) => [`${encodeURIComponent(p.name)}=${encodeURIComponent(queryValue(v))}`]),
      },
      {
        weight: 1,
        arbitrary: fc
          .tuple(valueArb(p.schema, pools), valueArb(p.schema, pools))
          .map(([a, b]) => [a, b].map((v) => `${encodeURIComponent(p.name)}=${encodeURIComponent(queryValue(v))}`)),
      },
    ),
  );
  const stray = fc.option(
    fc.tuple(
      fc.constantFrom(...pools.fieldNames, '__proto__', 'constructor[prototype]', 'a[b]', ''),
      fc.constantFrom(...HOSTILE_STRINGS.filter((s) => s.length < 300)),
    ),
    { freq: 5 },
  );
  return fc.tuple(fc.tuple(...each), stray).map(([values, extra]) => {
    const pairs = values.flat();
    if (extra) pairs.push(`${encodeURIComponent(extra[0])}=${encodeURIComponent(extra[1])}`);
    return pairs.length ? `?${pairs.join('&')}` : '';
  });
}

/** Requests for one operation. */
export function requestArb(op: Operation, allPools: Pools): fc.Arbitrary<FuzzRequest> {
  // The route's own records drawn four times as often as any other id.
  const own = allPools.idsFor?.(op.path) ?? [];
  const pools: Pools = { ...allPools, ids: [...own, ...own, ...own, ...own, ...allPools.ids] };
  const pathArb = fc
    .tuple(...op.params.map((p) => paramValueArb(p, pools).map((v) => [p.name, v] as const)))
    .map((pairs) => pairs.reduce((url, [name, v]) => url.replace(`{${name}}`, encodeURIComponent(v)), op.path));
  let body: fc.Arbitrary<{ payload?: string | Buffer; contentType?: string }>;
  if (op.body) body = jsonBodyArb(op.body, pools);
  else if (op.multipart)
    body = fc.oneof(
      { weight: 3, arbitrary: multipartArb(pools) },
      { weight: 1, arbitrary: jsonBodyArb(undefined, pools) },
      { weight: 1, arbitrary: fc.constant({}) },
    );
  else body = fc.oneof({ weight: 6, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: jsonBodyArb(undefined, pools) });
  return fc.record({ path: pathArb, query: queryArb(op.query, pools), body }).map(({ path, query, body: b }): FuzzRequest => {
    const req: FuzzRequest = { method: op.method, url: `${path}${query}`, headers: b.contentType ? { 'content-type': b.contentType } : {} };
    if (b.payload !== undefined) req.payload = b.payload;
    return req;
  });
}

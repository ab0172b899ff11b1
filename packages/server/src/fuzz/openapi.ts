/**
 * The operations of the OpenAPI document the server serves at /api/docs/json (@fastify/swagger from the
 * routes' zod schemas): method, route pattern (Fastify's `:id`), path and query parameters and the JSON
 * body schema. Routes without a JSON body schema that take a body (uploads, imports) are marked
 * `multipart`: they read their parts themselves.
 */
export type JsonSchema = {
  type?: string | string[];
  format?: string;
  pattern?: string;
  enum?: unknown[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number | boolean;
  exclusiveMaximum?: number | boolean;
  minItems?: number;
  maxItems?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  nullable?: boolean;
  $ref?: string;
};

export type Parameter = { name: string; in: 'path' | 'query'; required: boolean; schema: JsonSchema };

export type Operation = {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** Fastify's pattern, e.g. /api/user/single/:id (as in test/endpoints.ts). */
  route: string;
  /** The document's path, e.g. /api/user/single/{id}. */
  path: string;
  params: Parameter[];
  query: Parameter[];
  body?: JsonSchema;
  multipart: boolean;
};

type Document = {
  paths: Record<string, Record<string, { parameters?: Parameter[]; requestBody?: { content?: Record<string, { schema: JsonSchema }> } }>>;
  components?: { schemas?: Record<string, JsonSchema> };
};

/** Inlines `#/components/schemas/…` references (the document has a few). */
function resolve(schema: JsonSchema | undefined, doc: Document, depth = 0): JsonSchema | undefined {
  if (!schema || depth > 8) return schema;
  if (schema.$ref) {
    const name = schema.$ref.split('/').pop() ?? '';
    return resolve(doc.components?.schemas?.[name] ?? {}, doc, depth + 1);
  }
  const out: JsonSchema = { ...schema };
  if (schema.items) out.items = resolve(schema.items, doc, depth + 1);
  if (schema.properties)
    out.properties = Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k, resolve(v, doc, depth + 1) ?? {}]));
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const list = schema[key];
    if (list) out[key] = list.map((s) => resolve(s, doc, depth + 1) ?? {});
  }
  return out;
}

export function operationsOf(document: unknown): Operation[] {
  const doc = document as Document;
  const out: Operation[] = [];
  for (const [p, methods] of Object.entries(doc.paths)) {
    for (const [m, op] of Object.entries(methods)) {
      const method = m.toUpperCase() as Operation['method'];
      if (!['GET', 'POST', 'PATCH', 'PUT', 'DELETE'].includes(method)) continue;
      const parameters = (op.parameters ?? []).map((prm) => ({ ...prm, schema: resolve(prm.schema, doc) ?? {} }));
      const body = resolve(op.requestBody?.content?.['application/json']?.schema, doc);
      out.push({
        method,
        route: p.replace(/\{([^}]+)\}/g, ':$1'),
        path: p,
        params: parameters.filter((prm) => prm.in === 'path'),
        query: parameters.filter((prm) => prm.in === 'query'),
        body,
        multipart: !body && method !== 'GET' && method !== 'DELETE',
      });
    }
  }
  return out;
}

/** Every property name the document mentions (multipart fields are drawn from them). */
export function propertyNames(document: unknown): string[] {
  const names = new Set<string>();
  const walk = (s: unknown) => {
    if (Array.isArray(s)) for (const x of s) walk(x);
    else if (s && typeof s === 'object') {
      const o = s as Record<string, unknown>;
      if (o.properties && typeof o.properties === 'object') for (const k of Object.keys(o.properties)) names.add(k);
      if (o.in === 'query' && typeof o.name === 'string') names.add(o.name);
      for (const v of Object.values(o)) walk(v);
    }
  };
  walk((document as Document).paths);
  return [...names].sort();
}

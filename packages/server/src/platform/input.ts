/**
 * What no field of any request may hold, checked once for every route before its schema: a NUL
 * character or a lone UTF-16 surrogate (PostgreSQL can store neither in text or jsonb) and nesting
 * deeper than MAX_DEPTH (no payload of the spec nests more than a few levels; deep nesting only costs
 * recursion in validation). Walks the value without recursion, so a hostile body can't overflow the stack.
 */
export const MAX_DEPTH = 32;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function badString(s: string): boolean {
  return s.includes('\u0000') || LONE_SURROGATE.test(s);
}

/** True when the value (a parsed JSON body, query or params) must be refused. */
export function isUnacceptableInput(value: unknown): boolean {
  const stack: { v: unknown; depth: number }[] = [{ v: value, depth: 0 }];
  while (stack.length > 0) {
    const { v, depth } = stack.pop() as { v: unknown; depth: number };
    if (typeof v === 'string') {
      if (badString(v)) return true;
    } else if (v !== null && typeof v === 'object') {
      if (depth >= MAX_DEPTH) return true;
      if (Array.isArray(v)) for (const item of v) stack.push({ v: item, depth: depth + 1 });
      else
        for (const [key, item] of Object.entries(v)) {
          if (badString(key)) return true;
          stack.push({ v: item, depth: depth + 1 });
        }
    }
  }
  return false;
}

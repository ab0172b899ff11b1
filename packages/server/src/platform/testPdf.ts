import { inflateSync } from 'node:zlib';

/** Test helpers: a PDF written by platform/pdf.ts read back, object by object and text by text. */

/** The objects of a PDF as pdfkit writes it: each one's dictionary and its stream, inflated. */
export function objectsOf(pdf: Buffer): Map<number, { dict: string; stream?: Buffer }> {
  const s = pdf.toString('latin1');
  const objects = new Map<number, { dict: string; stream?: Buffer }>();
  for (const m of s.matchAll(/(\d+) 0 obj\n([\s\S]*?)\nendobj/g)) {
    const body = m[2] ?? '';
    const at = body.indexOf('\nstream\n');
    if (at < 0) {
      objects.set(Number(m[1]), { dict: body });
      continue;
    }
    const dict = body.slice(0, at);
    const start = (m.index ?? 0) + m[0].indexOf('\nstream\n') + 8;
    const length = Number(/\/Length (\d+)/.exec(dict)?.[1]);
    const raw = pdf.subarray(start, start + length);
    objects.set(Number(m[1]), { dict, stream: dict.includes('/FlateDecode') ? inflateSync(raw) : raw });
  }
  return objects;
}

/**
 * The texts of a PDF, one per text-showing operator, page by page: the content streams' glyph ids
 * mapped back through each font's ToUnicode CMap.
 */
export function textsOf(pdf: Buffer): string[][] {
  const objects = objectsOf(pdf);
  const unicodeOf = new Map<number, Map<number, string>>();
  const cmap = (ref: number) => {
    let map = unicodeOf.get(ref);
    if (!map) {
      map = new Map();
      const text = objects.get(ref)?.stream?.toString('latin1') ?? '';
      for (const r of text.matchAll(/<([0-9a-f]+)> <([0-9a-f]+)> \[([^\]]*)\]/g)) {
        const entries = [...(r[3] ?? '').matchAll(/<([0-9a-f ]+)>/g)].map((e) =>
          String.fromCharCode(...(e[1] ?? '').split(' ').map((h) => Number.parseInt(h, 16))),
        );
        for (const [i, u] of entries.entries()) map.set(Number.parseInt(r[1] ?? '0', 16) + i, u);
      }
      unicodeOf.set(ref, map);
    }
    return map;
  };
  const pages: string[][] = [];
  for (const { dict } of objects.values()) {
    if (!/\/Type \/Page\b/.test(dict)) continue;
    const resources = objects.get(Number(/\/Resources (\d+) 0 R/.exec(dict)?.[1]))?.dict ?? '';
    const fonts = new Map([...resources.matchAll(/\/(F\d+) (\d+) 0 R/g)].map((f) => [f[1], Number(f[2])]));
    const content = objects.get(Number(/\/Contents (\d+) 0 R/.exec(dict)?.[1]))?.stream?.toString('latin1') ?? '';
    const texts: string[] = [];
    let map = new Map<number, string>();
    for (const op of content.matchAll(/\/(F\d+) [\d.]+ Tf|\[([^\]]*)\] TJ/g)) {
      if (op[1]) {
        map = cmap(Number(/\/ToUnicode (\d+) 0 R/.exec(objects.get(fonts.get(op[1]) ?? -1)?.dict ?? '')?.[1]));
        continue;
      }
      let text = '';
      for (const hex of (op[2] ?? '').matchAll(/<([0-9a-f]*)>/g))
        for (let i = 0; i < (hex[1] ?? '').length; i += 4) text += map.get(Number.parseInt((hex[1] ?? '').slice(i, i + 4), 16)) ?? '\ufffd';
      texts.push(text);
    }
    pages.push(texts);
  }
  return pages;
}

// The suite's table in docs/performance.md (bench/suite.mjs).
import { readFileSync, writeFileSync } from 'node:fs';
import { CASES } from './cases.mjs';

export const DOC = 'docs/performance.md';
const START = '<!-- bench:start -->';
const END = '<!-- bench:end -->';

/** Merges this run's rows into docs/performance.md between the markers (rows keyed by their first two cells). */
export function writeDoc(rows, header) {
  let doc;
  try {
    doc = readFileSync(DOC, 'utf8');
  } catch {
    doc = `# Performance\n\n${START}\n${END}\n`;
  }
  const [before, rest] = doc.includes(START) ? doc.split(START) : [`${doc}\n`, `\n${END}\n`];
  const [section, after] = rest.split(END);
  const kept = new Map();
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    if (cells.length > 4 && cells[1] && !cells[1].startsWith('-') && cells[1] !== 'case')
      // A row of a run before the "SQL alone" column (12 columns) gets an empty cell in its place.
      kept.set(
        `${cells[1]}|${cells[2]}|${cells[3]}`,
        cells.length === 14 ? [...cells.slice(0, 7), '–', ...cells.slice(7)].join(' | ').trim() : line,
      );
  }
  // A row of a case the suite no longer has (renamed or dropped; 'clusters picker limit 1000 br' once every
  // case was asked as a browser asks) goes; a labelled row stays for the record.
  const names = new Set(CASES.map((c) => c.name));
  for (const k of [...kept.keys()]) if (!/ \[[^\]]*\]$/.test(k.split('|')[0]) && !names.has(k.split('|')[0])) kept.delete(k);
  for (const r of rows) {
    // A deep page's number follows the data (the scope's size): a row of the same case at another deep page
    // is an older run's and goes, so that the table shows one current row per case.
    const [name, role, page] = r.key.split('|');
    if (page.startsWith('deep (')) for (const k of [...kept.keys()]) if (k.startsWith(`${name}|${role}|deep (`)) kept.delete(k);
    kept.set(`${r.key}`, r.line);
  }
  const order = [];
  for (const c of CASES) for (const role of c.roles) for (const page of ['1', 'deep']) order.push(`${c.name}|${role}|${page}`);
  const lines = [...kept.entries()].sort(([a], [b]) => {
    const unlabelled = (k) => k.replace(/ \[[^\]]*\]\|/, '|');
    const ia = order.findIndex((k) => unlabelled(a).startsWith(k));
    const ib = order.findIndex((k) => unlabelled(b).startsWith(k));
    return (ia < 0 ? 1e9 : ia) - (ib < 0 ? 1e9 : ib) || (a < b ? -1 : 1);
  });
  // A labelled row ('users [before]', 'comments [0013]') is an earlier comparison kept for the record: it
  // goes into a table of its own under the current rows, and only the current rows are counted.
  const labelled = (k) => / \[[^\]]*\]\|/.test(k);
  const current = lines.filter(([k]) => !labelled(k));
  const earlier = lines.filter(([k]) => labelled(k));
  const met = current.filter(([, line]) => /\| met \|\s*$/.test(line)).length;
  const columns = [
    '| case | role | page | server p50 / p99 ms | server req/s | bare SQL p50 / p99 ms | SQL alone p50 ms | bare req/s | ratio | answer KB: on the wire, encoding (decoded) | statements | load 1/5/15 | target |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  const table = [
    header,
    '',
    `${met} of ${current.length} current cases meet their target.`,
    '',
    ...columns,
    ...current.map(([, line]) => line),
    ...(earlier.length
      ? [
          '',
          'Earlier comparisons (labelled runs of changes, kept for the record; not counted above):',
          '',
          ...columns,
          ...earlier.map(([, line]) => line),
        ]
      : []),
  ].join('\n');
  writeFileSync(DOC, `${before}${START}\n${table}\n${END}${after}`);
}

import { Readable } from 'node:stream';
import { type ContractKind, toLatin } from '@trasa/domain';
import { and, eq, inArray } from 'drizzle-orm';
import { groups } from '../db/schema.js';
import { contractFiles, contractGroups, contracts } from '../db/schema-clusters.js';
import type { Db, Executor } from '../platform/database.js';
import type { FileStore } from '../platform/files.js';

/**
 * A minimal valid PDF (PDF 1.4, one A4 page, Helvetica) showing the given lines, with a correct
 * cross-reference table. The standard font speaks WinAnsi, so the text is written in plain ASCII.
 */
export function minimalPdf(lines: string[]): Buffer {
  const ascii = (s: string) =>
    toLatin(s)
      .replace(/đ/g, 'dj')
      .replace(/Đ/g, 'Dj')
      .normalize('NFD')
      .replace(/\p{M}/gu, '')
      .replace(/[^\x20-\x7e]/g, '?')
      .replace(/[\\()]/g, (c) => `\\${c}`);
  const text = lines.map((l, i) => `${i === 0 ? '' : 'T* '}(${ascii(l)}) Tj`).join('\n');
  const content = `BT\n/F1 12 Tf\n16 TL\n72 770 Td\n${text}\nET\n`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}endstream`,
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** Stores a document through the file store and records it on the contract (as an upload would). */
export async function addContractDocument(
  db: Executor,
  files: FileStore,
  contractId: string,
  doc: { originalName: string; content: Buffer },
) {
  const stored = await files.saveDocument(Readable.from([doc.content]), doc.originalName, {
    maxBytes: 25 * 1024 * 1024,
    allowed: ['pdf', 'doc', 'docx'],
  });
  try {
    const [row] = await db
      .insert(contractFiles)
      .values({
        contractId,
        storedName: stored.storedName,
        originalnoIme: stored.originalName,
        mimetype: stored.mimetype,
        size: stored.size,
      })
      .returning();
    if (!row) throw new Error('contract file not recorded');
    return row;
  } catch (err) {
    await files.remove(stored.storedName);
    throw err;
  }
}

type DemoContract = {
  kind: ContractKind;
  naziv: string;
  broj: string;
  datumPocetka: string;
  rokTrajanja: number;
  /** A finished contract: status 'Završen' with this end date. */
  datumZavrsetka?: string;
  /** Demo groups (seed/demo.ts DEMO_GROUPS) by naziv. */
  grupe?: string[];
  dokument: string;
};

export const DEMO_CONTRACTS: DemoContract[] = [
  {
    kind: 'contract',
    naziv: 'Izgradnja širokopojasne mreže u ruralnim područjima',
    broj: 'MIT-404-01/2025',
    datumPocetka: '2025-03-01',
    rokTrajanja: 730,
    dokument: 'Уговор МИТ-404-01-2025.pdf',
  },
  {
    kind: 'contractIzv',
    naziv: 'Izvođenje radova - Zapadna Srbija',
    broj: 'IZV-12/2025',
    datumPocetka: '2025-04-01',
    rokTrajanja: 540,
    grupe: ['Optika Gradnja d.o.o.'],
    dokument: 'Уговор са извођачем - Оптика Градња.pdf',
  },
  {
    kind: 'contractIzv',
    naziv: 'Izvođenje radova - Južna i Istočna Srbija',
    broj: 'IZV-13/2025',
    datumPocetka: '2025-05-15',
    rokTrajanja: 540,
    grupe: ['Kabl Mreže d.o.o.'],
    dokument: 'Ugovor sa izvođačem - Kabl Mreže.pdf',
  },
  {
    kind: 'contractPro',
    naziv: 'Projektovanje trasa optičke mreže',
    broj: 'PRO-07/2024',
    datumPocetka: '2024-11-01',
    rokTrajanja: 180,
    datumZavrsetka: '2025-04-20',
    grupe: ['Projektni biro Meridijan'],
    dokument: 'Уговор о пројектовању ПРО-07-2024.pdf',
  },
  {
    kind: 'contractNad',
    naziv: 'Stručni nadzor nad izvođenjem radova',
    broj: 'NAD-03/2025',
    datumPocetka: '2025-04-01',
    rokTrajanja: 600,
    grupe: ['Nadzor Inženjering d.o.o.'],
    dokument: 'Ugovor o stručnom nadzoru NAD-03-2025.pdf',
  },
];

/**
 * Demo contracts of the four kinds, each with a small PDF, for the demo groups of seed/demo.ts (run
 * after seedDemo). A contract already there (same kind and broj) is left alone, so running it twice
 * adds nothing; a typed contract whose groups are missing is skipped.
 */
export async function seedDemoContracts(db: Db, files: FileStore): Promise<{ contracts: number }> {
  let added = 0;
  for (const c of DEMO_CONTRACTS) {
    const [existing] = await db
      .select({ id: contracts.id })
      .from(contracts)
      .where(and(eq(contracts.kind, c.kind), eq(contracts.broj, c.broj)))
      .limit(1);
    if (existing) continue;
    const names = c.grupe ?? [];
    const found = names.length ? await db.select({ id: groups.id }).from(groups).where(inArray(groups.naziv, names)) : [];
    if (found.length !== names.length) continue;
    await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(contracts)
        .values({
          kind: c.kind,
          naziv: c.naziv,
          broj: c.broj,
          datumPocetka: c.datumPocetka,
          rokTrajanja: c.rokTrajanja,
          status: c.datumZavrsetka ? 'Završen' : 'U toku',
          datumZavrsetka: c.datumZavrsetka ?? null,
        })
        .returning({ id: contracts.id });
      if (!row) throw new Error('demo contract not created');
      if (found.length) await tx.insert(contractGroups).values(found.map((g) => ({ contractId: row.id, groupId: g.id })));
      const pdf = minimalPdf([c.naziv, `Broj ugovora: ${c.broj}`, `Datum pocetka: ${c.datumPocetka}`, `Rok: ${c.rokTrajanja} dana`]);
      await addContractDocument(tx, files, row.id, { originalName: c.dokument, content: pdf });
    });
    added++;
  }
  return { contracts: added };
}

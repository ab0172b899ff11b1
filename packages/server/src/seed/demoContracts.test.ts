import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/harness.js';
import { contractFiles, contractGroups, contracts } from '../db/schema-clusters.js';
import { sniffDocument } from '../platform/files.js';
import { seedDemo } from './demo.js';
import { seedDemoClusters } from './demoClusters.js';
import { DEMO_CONTRACTS, minimalPdf, seedDemoContracts } from './demoContracts.js';
import { linkDemoClusters } from './demoLinks.js';
import { createUser, tokenFor } from './factories.js';

const t = useTestApp();

describe('seedDemoContracts', () => {
  it('adds contracts of the four kinds with a PDF each, one finished; a second run adds nothing', async () => {
    await seedDemo(t.db);
    expect(await seedDemoContracts(t.db, t.ctx.files)).toEqual({ contracts: DEMO_CONTRACTS.length });
    expect(await seedDemoContracts(t.db, t.ctx.files)).toEqual({ contracts: 0 });
    const rows = await t.db.select().from(contracts);
    expect(new Set(rows.map((r) => r.kind))).toEqual(new Set(['contract', 'contractIzv', 'contractPro', 'contractNad']));
    expect(rows.filter((r) => r.status === 'Završen' && r.datumZavrsetka)).toHaveLength(1);
    const files = await t.db.select().from(contractFiles);
    expect(files).toHaveLength(DEMO_CONTRACTS.length);
    const onDisk = await readdir(path.join(t.ctx.config.dataDir, 'files'));
    for (const f of files) {
      expect(onDisk).toContain(f.storedName);
      expect(await sniffDocument(path.join(t.ctx.config.dataDir, 'files', f.storedName))).toBe('pdf');
    }
    for (const r of rows.filter((x) => x.kind !== 'contract')) {
      expect(await t.db.select().from(contractGroups).where(eq(contractGroups.contractId, r.id))).toHaveLength(1);
    }
    // The documents download through the API.
    const admin = await tokenFor(t.ctx, await createUser(t.db, { role: 'Admin' }));
    const file = files[0];
    const owner = rows.find((r) => r.id === file?.contractId);
    const res = await t.call({ method: 'GET', url: `/api/files/${owner?.kind}/${owner?.id}/${file?.id}`, token: admin });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('writes a PDF with a correct cross-reference table', async () => {
    const pdf = minimalPdf(['Уговор (тест) \\ Đurđevac']).toString('latin1');
    const start = Number(pdf.match(/startxref\n(\d+)/)?.[1]);
    expect(pdf.slice(start, start + 4)).toBe('xref');
    const offsets = [...pdf.matchAll(/^(\d{10}) 00000 n $/gm)].map((m) => Number(m[1]));
    for (const [i, o] of offsets.entries()) expect(pdf.slice(o, o + `${i + 1} 0 obj`.length)).toBe(`${i + 1} 0 obj`);
    expect(pdf).toContain('(Ugovor \\(test\\) \\\\ Djurdjevac) Tj');
    const length = Number(pdf.match(/\/Length (\d+)/)?.[1]);
    const stream = pdf.slice(pdf.indexOf('stream\n') + 7, pdf.indexOf('endstream'));
    expect(stream.length).toBe(length);
  });
});

describe('demo links', () => {
  it('puts every demo cluster under the general contract and its groups’ typed contracts, once', async () => {
    await seedDemoClusters(t.db);
    const first = await linkDemoClusters(t.db);
    expect(first.links).toBeGreaterThan(0);
    expect((await linkDemoClusters(t.db)).links).toBe(0);
  });
});

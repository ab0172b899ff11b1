import { asTyped, IMPORTS, type ImportResponse } from '@trasa/domain';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { said, useTestApp } from '../../../test/harness.js';
import { roles, users } from '../../db/schema.js';
import { clusters, contractClusters } from '../../db/schema-clusters.js';
import { createContract, createGroup, createRole, createUser, tokenFor } from '../../seed/factories.js';
import { multipartBody } from '../contracts/testDocuments.js';

/** Issue 14: names in import rows resolve to one record, or the row says which records they fit. */

const t = useTestApp();
let adminToken: string;

beforeAll(async () => {
  adminToken = await tokenFor(t.ctx, await createUser(t.db, { role: 'Admin' }));
});

function csv(rows: string[][]): Buffer {
  return Buffer.from(rows.map((r) => r.map((c) => `"${c.replace(/"/g, '""')}"`).join(',')).join('\r\n'), 'utf8');
}

async function imported(model: 'user' | 'location', rows: string[][]) {
  const form = await multipartBody({}, [{ field: 'file', name: 'uvoz.csv', content: csv(rows) }]);
  const res = await t.call({
    method: 'POST',
    url: `/api/${model}/excel-import`,
    payload: form.payload,
    headers: form.headers,
    token: adminToken,
  });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as ImportResponse).document;
}

const roleOf = async (email: string) => {
  const [row] = await t.db
    .select({ naziv: roles.imeRole })
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .where(eq(users.email, email));
  return row?.naziv;
};

describe('user import: roles and groups by name', () => {
  it("a built-in role's name, short name or key resolves to it even when extra roles carry its base", async () => {
    const group = await createGroup(t.db, { naziv: 'Terenska ekipa', type: 'IZVODJAC' });
    await createRole(t.db, { imeRole: 'Инжењер на терену', kratakNaziv: 'ИНЖ', baseRole: 'Zaposleni' });
    await createRole(t.db, { imeRole: 'Vođa tima', kratakNaziv: 'VT', baseRole: 'Rukovodilac' });
    const doc = await imported('user', [
      ['Ime', 'Prezime', 'Email', 'Rola', 'Grupa'],
      ['A', 'Latinica', 'a@teren.rs', 'Zaposleni', group.naziv],
      ['B', 'Ћирилица', 'b@teren.rs', 'Запослени', group.naziv],
      ['C', 'Bez role', 'c@teren.rs', '', group.naziv],
      ['D', 'Rukovodilac', 'd@teren.rs', 'rukovodilac', group.naziv],
      ['E', 'Extra', 'e@teren.rs', 'inzenjer na terenu', group.naziv],
      ['F', 'Kratko', 'f@teren.rs', 'inž', group.naziv],
    ]);
    expect(doc.importReport.map((r) => [r.red, r.errors])).toEqual([2, 3, 4, 5, 6, 7].map((red) => [red, []]));
    expect(await roleOf('a@teren.rs')).toBe('Zaposleni');
    expect(await roleOf('b@teren.rs')).toBe('Zaposleni');
    expect(await roleOf('c@teren.rs')).toBe('Zaposleni');
    expect(await roleOf('d@teren.rs')).toBe('Rukovodilac');
    expect(await roleOf('e@teren.rs')).toBe('Инжењер на терену');
    expect(await roleOf('f@teren.rs')).toBe('Инжењер на терену');
  });

  it('a name two roles or two groups share is reported as ambiguous, naming the matches', async () => {
    const first = await createGroup(t.db, { naziv: 'Kanal Jedan', kratakNaziv: 'KJ', type: 'IZVODJAC' });
    await createGroup(t.db, { naziv: 'Kanal Dva', kratakNaziv: 'кј', type: 'IZVODJAC' });
    // Written before names were unique: two extra roles with one short name.
    await createRole(t.db, { imeRole: 'Monter A', kratakNaziv: 'MON' });
    await createRole(t.db, { imeRole: 'Monter B', kratakNaziv: 'мон' });
    const doc = await imported('user', [
      ['Ime', 'Prezime', 'Email', 'Rola', 'Grupa'],
      ['G', 'Grupa', 'g@dvosmisleno.rs', 'Zaposleni', 'KJ'],
      ['R', 'Rola', 'r@dvosmisleno.rs', 'MON', first.naziv],
      ['O', 'Ok', 'o@dvosmisleno.rs', 'Monter A', 'Kanal Jedan'],
    ]);
    expect(doc.importReport.map((r) => r.errors)).toEqual([
      [
        said(
          IMPORTS.rowError(
            asTyped('g@dvosmisleno.rs'),
            IMPORTS.ambiguousGroup(asTyped('KJ'), [asTyped('Kanal Jedan'), asTyped('Kanal Dva')]),
          ),
        ),
      ],
      [
        said(
          IMPORTS.rowError(asTyped('r@dvosmisleno.rs'), IMPORTS.ambiguousRole(asTyped('MON'), [asTyped('Monter A'), asTyped('Monter B')])),
        ),
      ],
      [],
    ]);
  });
});

describe('cluster import: contracts and groups by name', () => {
  const HEADER = ['Кластер', 'ID насеља', 'Назив насеља', 'Одговорне групе', 'Уговор'];

  it('links the contract a number names; a name that fits several contracts is the row error, naming them', async () => {
    const a = await createContract(t.db, { naziv: 'Okvirni sporazum Zapad', broj: 'OS-1/2026' });
    const b = await createContract(t.db, { naziv: 'Okvirni sporazum Zapad', broj: 'OS-2/2026' });
    // Two rows with one number, written before numbers were unique.
    await createContract(t.db, { naziv: 'Stari A', broj: 'DUP-9' });
    await createContract(t.db, { naziv: 'Stari B', broj: 'dup-9' });
    const doc = await imported('location', [
      HEADER,
      ['Uvoz Broj 1', 'NM-1', 'Naselje 1', '', 'os-2/2026'],
      ['Uvoz Broj 2', 'NM-2', 'Naselje 2', '', ' OS-1 / 2026'],
      ['Uvoz Naziv', 'NM-3', 'Naselje 3', '', 'Okvirni sporazum Zapad'],
      ['Uvoz Dupli', 'NM-4', 'Naselje 4', '', 'DUP-9'],
    ]);
    expect(doc.importReport.map((r) => r.errors)).toEqual([
      [],
      [],
      [
        said(
          IMPORTS.rowError(
            asTyped('Uvoz Naziv'),
            IMPORTS.ambiguousContract(asTyped('Okvirni sporazum Zapad'), [
              asTyped('Okvirni sporazum Zapad (OS-1/2026)'),
              asTyped('Okvirni sporazum Zapad (OS-2/2026)'),
            ]),
          ),
        ),
      ],
      [
        said(
          IMPORTS.rowError(
            asTyped('Uvoz Dupli'),
            IMPORTS.ambiguousContract(asTyped('DUP-9'), [asTyped('Stari A (DUP-9)'), asTyped('Stari B (dup-9)')]),
          ),
        ),
      ],
    ]);
    const linkOf = async (naziv: string) => {
      const [row] = await t.db
        .select({ contractId: contractClusters.contractId })
        .from(clusters)
        .innerJoin(contractClusters, eq(contractClusters.clusterId, clusters.id))
        .where(eq(clusters.naziv, naziv));
      return row?.contractId;
    };
    expect(await linkOf('Uvoz Broj 1')).toBe(b.id);
    expect(await linkOf('Uvoz Broj 2')).toBe(a.id);
    expect(await t.db.select().from(clusters).where(eq(clusters.naziv, 'Uvoz Naziv'))).toEqual([]);
  });

  it('a group name two groups share is the row error', async () => {
    await createGroup(t.db, { naziv: 'Nadzor Sever', kratakNaziv: 'NS', type: 'NADZOR' });
    await createGroup(t.db, { naziv: 'Nadzor Jug', kratakNaziv: 'нс', type: 'NADZOR' });
    const doc = await imported('location', [HEADER, ['Uvoz Grupa', 'NG-1', 'Naselje G', 'NS', '']]);
    expect(doc.importReport[0]?.errors).toEqual([
      said(
        IMPORTS.rowError(asTyped('Uvoz Grupa'), IMPORTS.ambiguousGroup(asTyped('NS'), [asTyped('Nadzor Sever'), asTyped('Nadzor Jug')])),
      ),
    ]);
  });
});

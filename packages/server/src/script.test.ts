import { CODEBOOKS, COMMON, IMPORTS, type ImportResponse, INVENTORY, type LogDto, type Script, toScript } from '@trasa/domain';
import { desc, eq, isNull } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../test/harness.js';
import { auditLogs, mailOutbox } from './db/schema.js';
import { inventoryContractLocations, inventoryContracts } from './db/schema-inventory.js';
import { multipartBody } from './features/contracts/testDocuments.js';
import { TYPE_TEXTS } from './features/types/service.js';
import { backgroundSettled } from './platform/background.js';
import { SCRIPT_HEADER } from './platform/script.js';
import { createCluster, createGroup, createSettlement, createUser, tokenFor } from './seed/factories.js';

/**
 * One script means one script (docs/decisions.md "One script at a time"): what the server words or
 * composes comes in the request's script — the X-Trasa-Pismo header, else the signed-in user's choice,
 * else Cyrillic — and what a person typed stays as typed, in either script.
 */

const t = useTestApp();

const LATIN = /[A-Za-zČčĆćŽžŠšĐđ]/;
const CYRILLIC = /[\u0400-\u04FF]/;

let admin: string;
let adminEmail: string;
let client: string;

const as = (script: Script) => ({ [SCRIPT_HEADER]: script });

beforeAll(async () => {
  const adminRow = await createUser(t.db, { role: 'Admin' });
  adminEmail = adminRow.email;
  admin = await tokenFor(t.ctx, adminRow);
  const nar = await createGroup(t.db, { type: 'NARUCILAC' });
  client = await tokenFor(t.ctx, await createUser(t.db, { role: 'Zaposleni', groupId: nar.id }));
});

describe("the request's script", () => {
  it('is the header, else the signed-in user’s choice, else Cyrillic', async () => {
    const missing = '/api/types/00000000-0000-4000-8000-000000000000';
    const latinUser = await createUser(t.db, { role: 'Admin' });
    const latin = await tokenFor(t.ctx, latinUser);
    const saved = await t.call({ method: 'POST', url: '/api/user/edit-script', token: latin, payload: { pismo: 'lat' } });
    expect(saved.statusCode, saved.body).toBe(200);
    const cases: [who: string, token: string, headers: Record<string, string>, message: string][] = [
      ['no header, no choice', admin, {}, 'Није пронађено'],
      ['the header', admin, as('lat'), 'Nije pronađeno'],
      ["the user's choice", latin, {}, 'Nije pronađeno'],
      ["the header over the user's choice", latin, as('cyr'), 'Није пронађено'],
      ["something else in the header: the user's choice", latin, { [SCRIPT_HEADER]: 'glagoljica' }, 'Nije pronađeno'],
    ];
    for (const [who, token, headers, message] of cases) {
      const res = await t.call({ method: 'DELETE', url: missing, token, headers });
      expect(res.json().message, who).toBe(message);
    }
    // Anonymous: the header, else Cyrillic.
    expect((await t.call({ method: 'GET', url: '/api/nepostojeca' })).json().message).toBe(toScript(COMMON.routeNotFound, 'cyr'));
    expect((await t.call({ method: 'GET', url: '/api/nepostojeca', headers: as('lat') })).json().message).toBe(COMMON.routeNotFound);
  });
});

describe('answers in one script, typed values as typed', () => {
  it('an error naming a typed value: the fixed words converted, the name as typed (Cyrillic and Latin alike)', async () => {
    await createSettlement(t.db, { code: 'PIS-1', naziv: 'Мокра Гора' });
    await createSettlement(t.db, { code: 'PIS-2', naziv: 'Mokra Gora' });
    const post = (id: string, script: Script) =>
      t.call({ method: 'POST', url: '/api/naselje', token: admin, headers: as(script), payload: { id, naziv: 'Нова' } });
    const cyrInLat = await post('PIS-1', 'lat');
    expect(cyrInLat.statusCode).toBe(409);
    expect(cyrInLat.json()).toEqual({ message: 'Duplikat za: Мокра Гора (PIS-1)', errors: { id: 'Duplikat za: Мокра Гора (PIS-1)' } });
    const latInCyr = await post('PIS-2', 'cyr');
    expect(latInCyr.json()).toEqual({ message: 'Дупликат за: Mokra Gora (PIS-2)', errors: { id: 'Дупликат за: Mokra Gora (PIS-2)' } });
    expect(CODEBOOKS.duplicateSettlement('x')).toMatch(CYRILLIC);
  });

  it('a validation error, field errors included', async () => {
    for (const script of ['cyr', 'lat'] as const) {
      const res = await t.call({ method: 'POST', url: '/api/types', token: admin, headers: as(script), payload: { naziv: '' } });
      expect(res.statusCode).toBe(400);
      const body = res.json() as { message: string; errors: Record<string, string> };
      for (const text of [body.message, ...Object.values(body.errors)]) expect(text).not.toMatch(script === 'cyr' ? LATIN : CYRILLIC);
    }
  });

  it('a success message', async () => {
    // Each script's message with a type named in the other script: the data in the answer as typed.
    for (const [script, naziv, kratakNaziv, message] of [
      ['cyr', 'Konsultant', 'KON', 'Успешно сте додали тип групе.'],
      ['lat', 'Конзултант', 'КОН', 'Uspešno ste dodali tip grupe.'],
    ] as const) {
      const res = await t.call({ method: 'POST', url: '/api/types', token: admin, headers: as(script), payload: { naziv, kratakNaziv } });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().message).toBe(message);
      expect(res.json().message).toBe(toScript(TYPE_TEXTS.created, script));
      expect(res.json().type).toMatchObject({ naziv, kratakNaziv });
    }
  });

  it("an import row's message: the fixed words converted, the typed name as typed", async () => {
    const school = await createCluster(t.db, { naziv: 'OŠ Pismo', groupIds: [] });
    const [contract] = await t.db
      .insert(inventoryContracts)
      .values({ naziv: 'Isporuka pismo', broj: 'PIS-7/2026', brojKey: 'pis-7/2026', datumPocetka: '2026-01-01' })
      .returning();
    await t.db.insert(inventoryContractLocations).values({ contractId: contract?.id as string, clusterId: school.id });
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Inventar');
    for (const r of [
      ['Šifra', 'Naziv', 'Količina', 'Datum primopredaje', 'Cena RSD', 'Broj ugovora'],
      ['', 'Рутер', '1', '2026-04-01', '', ''],
      ['', 'Ruter', '1', '2026-04-01', '', ''],
    ])
      ws.addRow(r);
    const content = Buffer.from(await wb.xlsx.writeBuffer());
    const rowsIn = async (script: Script) => {
      const form = await multipartBody({}, [{ field: 'file', name: 'inventar.xlsx', content }]);
      const res = await t.call({
        method: 'POST',
        url: `/api/inventory/import?lokacija=${school.id}`,
        payload: form.payload,
        headers: { ...form.headers, ...as(script) },
        token: admin,
      });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json() as ImportResponse;
      expect(body.message).toBe(toScript(IMPORTS.success, script));
      return body.document.importReport;
    };
    for (const [script, errors] of [
      [
        'lat',
        [
          ['Greška pri kreiranju za red: Рутер - Tip inventara „Рутер“ ne postoji u šifarniku.'],
          ['Greška pri kreiranju za red: Ruter - Tip inventara „Ruter“ ne postoji u šifarniku.'],
        ],
      ],
      [
        'cyr',
        [
          ['Грешка при креирању за ред: Рутер - Тип инвентара „Рутер“ не постоји у шифарнику.'],
          ['Грешка при креирању за ред: Ruter - Тип инвентара „Ruter“ не постоји у шифарнику.'],
        ],
      ],
    ] as const) {
      const rows = await rowsIn(script);
      expect(rows.map((r) => r.errors)).toEqual(errors);
      // The row's name is data: as typed.
      expect(rows.map((r) => r.naziv)).toEqual(['Рутер', 'Ruter']);
    }
    expect(INVENTORY.importRowUnknownType('x')).toMatch(LATIN);
  });

  it('the inventory import’s size refusal is a Serbian sentence in the chosen script', () => {
    for (const [script, sentence] of [
      ['cyr', 'Документ не сме бити већи од 10 мегабајта.'],
      ['lat', 'Dokument ne sme biti veći od 10 megabajta.'],
    ] as const)
      expect(toScript(INVENTORY.importTooLarge, script)).toBe(sentence);
  });
});

describe('log sentences', () => {
  it('read in the viewer’s script, the names inside as typed; the search finds them in either script', async () => {
    for (const naziv of ['Тип Ћирилица', 'Tip Latinica']) {
      const res = await t.call({ method: 'POST', url: '/api/types', token: admin, payload: { naziv, kratakNaziv: naziv.slice(0, 6) } });
      expect(res.statusCode, res.body).toBe(201);
    }
    // A row written before the spans were kept: shown as written, whoever reads it.
    await t.db.insert(auditLogs).values({ message: 'Korisnik stari@primer.rs je dodao tip grupe Stari.', userLabel: 'stari@primer.rs' });
    const sentences = async (url: string, script: Script) => {
      const res = await t.call({ method: 'GET', url, token: admin, headers: as(script) });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().logs as LogDto[]).map((l) => l.message);
    };
    for (const [script, added] of [
      ['lat', (name: string) => `Korisnik ${adminEmail} je dodao tip grupe ${name}.`],
      ['cyr', (name: string) => `Корисник ${adminEmail} је додао тип групе ${name}.`],
    ] as const) {
      const read = await sentences('/api/log?limit=50', script);
      for (const name of ['Тип Ћирилица', 'Tip Latinica']) expect(read).toContain(added(name));
      expect(read).toContain('Korisnik stari@primer.rs je dodao tip grupe Stari.');
    }
    // The stored sentence is as written (the search reads it), its typed values' places beside it.
    const [stored] = await t.db
      .select({ message: auditLogs.message, spans: auditLogs.typedSpans })
      .from(auditLogs)
      .where(eq(auditLogs.message, `Korisnik ${adminEmail} je dodao tip grupe Тип Ћирилица.`));
    const sentence = stored?.message ?? '';
    expect(stored?.spans).toEqual([9, 9 + adminEmail.length, sentence.indexOf('Тип Ћ'), sentence.length - 1]);
    expect(await t.db.select().from(auditLogs).where(isNull(auditLogs.typedSpans))).toHaveLength(1);
    for (const [eng, srb] of [
      ['dodao tip grupe Tip Latinica', 'додао тип групе Тип Латиница'],
      ['Тип Ћирилица', 'Tip Ćirilica'],
    ] as const) {
      const found = await sentences(`/api/search/log?eng=${encodeURIComponent(eng)}&srb=${encodeURIComponent(srb)}&limit=50`, 'cyr');
      expect(found.length, eng).toBeGreaterThan(0);
      for (const m of found) expect(m).toMatch(/^Корисник .* је додао тип групе (Тип Ћирилица|Tip Latinica)\.$/);
    }
  });
});

describe('mails', () => {
  it('come in the recipient’s script, their name as typed', async () => {
    const reset = async (user: { email: string }) => {
      const res = await t.call({ method: 'POST', url: '/api/user/reset-password', payload: { email: user.email } });
      expect(res.statusCode, res.body).toBe(200);
      await backgroundSettled();
      const [mail] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, user.email)).orderBy(desc(mailOutbox.createdAt)).limit(1);
      if (!mail) throw new Error('no mail');
      return mail;
    };
    // A reader of each script, named in the other one.
    for (const { pismo, ime, subject, text } of [
      {
        pismo: 'lat',
        ime: 'Ђорђе',
        subject: 'Trasa — promena lozinke',
        text: /^Poštovani\/a Ђорђе,\n\nza promenu lozinke u aplikaciji Trasa otvorite link:\nhttp:\/\/trasa\.test\//,
      },
      {
        pismo: 'cyr',
        ime: 'Đorđe',
        subject: 'Траса — промена лозинке',
        text: /^Поштовани\/а Đorđe,\n\nза промену лозинке у апликацији Траса отворите линк:\nhttp:\/\/trasa\.test\//,
      },
    ] as const) {
      const reader = await createUser(t.db, { ime, email: `pismo.${pismo}@primer.rs` });
      // Cyrillic is every user's script until they choose.
      if (pismo === 'lat') {
        await t.call({ method: 'POST', url: '/api/user/edit-script', token: await tokenFor(t.ctx, reader), payload: { pismo } });
      }
      const mail = await reset(reader);
      expect(mail.subject).toBe(subject);
      expect(mail.text).toMatch(text);
      // The link as sent: addresses are never converted.
      expect(mail.text).toContain(`email=pismo.${pismo}%40primer.rs`);
    }
  });
});

describe('exports', () => {
  async function sheet(url: string, script: Script) {
    const res = await t.call({ method: 'GET', url, token: admin, headers: as(script) });
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const ws = wb.worksheets[0];
    if (!ws) throw new Error('no sheet');
    const rows: string[][] = [];
    ws.eachRow((row) => {
      rows.push((row.values as unknown[]).slice(1).map((v) => (v == null ? '' : String(v))));
    });
    return { name: ws.name, rows };
  }

  it('write the title, the headers and the product’s words in the chosen script, the data as stored', async () => {
    await createUser(t.db, { role: 'Gost', ime: 'Гордана', prezime: 'Gostić', email: 'gordana.pismo@primer.rs' });
    for (const [script, name, headers, [yes, active]] of [
      ['cyr', 'Гости', ['Име', 'Презиме', 'Имејл', 'Имејл потврђен', 'Статус'], ['Да', 'активан']],
      ['lat', 'Gosti', ['Ime', 'Prezime', 'Imejl', 'Imejl potvrđen', 'Status'], ['Da', 'aktivan']],
    ] as const) {
      const written = await sheet('/api/export/guests?format=xlsx&eng=gordana.pismo', script);
      expect(written.name).toBe(name);
      expect(written.rows[0]).toEqual(headers);
      expect(written.rows[1]).toEqual(['Гордана', 'Gostić', 'gordana.pismo@primer.rs', yes, active]);
    }
  });

  it('write a built-in name in the chosen script and a name someone gave as given', async () => {
    await t.call({ method: 'POST', url: '/api/types', token: admin, payload: { naziv: 'Agencija Pismo', kratakNaziv: 'AGP' } });
    const rowOf = (rows: string[][], first: string) => rows.find((r) => r[0] === first);
    const cyr = await sheet('/api/export/group-types?format=xlsx', 'cyr');
    expect(rowOf(cyr.rows, 'Извођач')).toEqual(['Извођач', 'ИЗВ', 'Да']);
    expect(rowOf(cyr.rows, 'Agencija Pismo')).toEqual(['Agencija Pismo', 'AGP', 'Не']);
    const lat = await sheet('/api/export/group-types?format=xlsx', 'lat');
    expect(rowOf(lat.rows, 'PIU TA')).toEqual(['PIU TA', 'PIU TA', 'Da']);
    expect(rowOf(lat.rows, 'Конзултант')?.slice(2)).toEqual(['Ne']);
  });

  it('write a log sentence with its fixed words converted and the names as typed', async () => {
    const lat = await sheet('/api/export/logs?format=xlsx&eng=Тип Ћирилица&srb=Tip Ćirilica', 'lat');
    expect(lat.rows[0]?.[2]).toBe('Poruka');
    expect(lat.rows.slice(1).map((r) => r[2])).toContain(`Korisnik ${adminEmail} je dodao tip grupe Тип Ћирилица.`);
  });
});

describe('a refusal of a fixed text', () => {
  it('comes in the script asked for', async () => {
    const contractor = await tokenFor(t.ctx, await createUser(t.db, { role: 'Zaposleni', groupId: (await createGroup(t.db)).id }));
    for (const script of ['cyr', 'lat'] as const) {
      const res = await t.call({ method: 'GET', url: '/api/inv-type', token: contractor, headers: as(script) });
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe(toScript(INVENTORY.notAllowed, script));
      expect(res.json().message).not.toMatch(script === 'cyr' ? LATIN : CYRILLIC);
    }
    const keeper = await t.call({ method: 'GET', url: '/api/inv-type', token: client });
    expect(keeper.statusCode).toBe(200);
  });
});

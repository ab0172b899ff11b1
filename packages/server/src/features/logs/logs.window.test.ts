import { foldForSearch, type LogDto } from '@trasa/domain';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { addLogs } from '../../../test/logData.js';
import { searchTerms } from '../../platform/textSearch.js';
import { createGroup, createUser, tokenFor } from '../../seed/factories.js';
import { adminToken, g, leafToken, list, managerToken, messagesOf, otherToken, setupLogs, t, tree } from './logsSetup.js';
import { addressQuery, addressRuns, LETTER_PATHS, letterQuery, MATCH_INDEX, NARROWING, SEARCH_WINDOW, SUFFIX_INDEXES } from './service.js';

setupLogs();

describe('logs', () => {
  it('a search of a scope no bigger than the window is exact from it; a bigger scope finds an old rare match through the index', async () => {
    const small = await createGroup(t.db, { naziv: 'Mali tim', cirilica: 'Мали тим' });
    const large = await createGroup(t.db, { naziv: 'Veliki tim', cirilica: 'Велики тим' });
    const smallToken = await tokenFor(t.ctx, await createUser(t.db, { role: 'Zaposleni', groupId: small.id }));
    const largeToken = await tokenFor(t.ctx, await createUser(t.db, { role: 'Zaposleni', groupId: large.id }));
    const time = (i: number) => new Date(Date.UTC(2023, 0, 1, 0, 0, i));
    // The small team: 40 rows, three of them name the rare place (in either script, diacritics or not).
    await addLogs(
      t.db,
      Array.from({ length: 40 }, (_, i) => ({
        message: [3, 17, 30].includes(i)
          ? `Korisnik m@mali.rs je dodao naselje ${i === 17 ? 'Ђурђевдан' : 'Đurđevdan'} ${i}.`
          : `Mali unos ${i}`,
        group: g(small),
        createdAt: time(i),
      })),
    );
    const search = async (query: string, token: string) => (await list(`/api/search/log?${query}`, token)).json();
    const found = await search(`eng=djurdjevdan&srb=${encodeURIComponent('ђурђевдан')}`, smallToken);
    expect(found).toMatchObject({ totalLogs: 3, totalExact: true });
    expect(messagesOf(found)).toEqual([
      'Korisnik m@mali.rs je dodao naselje Đurđevdan 30.',
      'Korisnik m@mali.rs je dodao naselje Ђурђевдан 17.',
      'Korisnik m@mali.rs je dodao naselje Đurđevdan 3.',
    ]);
    const second = await search('eng=Đurđevdan&page=2&limit=2', smallToken);
    expect(second).toMatchObject({ totalLogs: 3, totalExact: true });
    expect(messagesOf(second)).toEqual(['Korisnik m@mali.rs je dodao naselje Đurđevdan 3.']);
    expect(await search('eng=xyzqnema', smallToken)).toMatchObject({ logs: [], totalLogs: 0, totalExact: true });
    // The large team: more rows than the window, the one rare row the oldest (outside the newest 5,000).
    await addLogs(
      t.db,
      Array.from({ length: 5_050 }, (_, i) => ({
        message: i === 0 ? 'Korisnik v@veliki.rs je dodao naselje Retkovac.' : `Veliki unos ${i}`,
        group: g(large),
        createdAt: time(100 + i),
      })),
    );
    for (const token of [largeToken, adminToken]) {
      const rare = await search(`eng=retkovac&srb=${encodeURIComponent('ретковац')}`, token);
      expect(rare).toMatchObject({ totalLogs: 1, totalExact: true });
      expect(messagesOf(rare)).toEqual(['Korisnik v@veliki.rs je dodao naselje Retkovac.']);
    }
    // The small team never sees the large team's rows, nor they the small team's.
    expect(await search('eng=retkovac', smallToken)).toMatchObject({ logs: [], totalLogs: 0, totalExact: true });
    expect(await search('eng=Đurđevdan', largeToken)).toMatchObject({ logs: [], totalLogs: 0, totalExact: true });
  });

  describe('finds through the letter index, the window or the trigrams exactly what a substring filter finds', () => {
    beforeAll(async () => {
      const rows: [string, { id: string; cirilica: string } | null, Partial<{ userLabel: string; ip: string; url: string }>][] = [
        ['Korisnik x@leaf.rs je dodao naselje Markovac 12.', g(tree.leaf), {}],
        ['Korisnik y@other.rs je dodao naselje Марковац 3.', g(tree.other), { userLabel: 'Јелена Радовановић (y@other.rs)' }],
        ['Korisnik z@mid.rs je izmenio ugovor 97/2025 za Radovanović.', g(tree.mid), {}],
        ['Korisnik w@root.rs je otvorio temu.', g(tree.root), { url: '/api/topic/0deadbeef1-a3f5-3c52-8087-f9976ac934a3/komentar' }],
        ['Müller x9retkovac7 Šabac', null, { ip: '10.77.31.5' }],
        ['Korisnik q@mid.rs: klaster Sirogojno 3, klaster Zlatibor.', g(tree.mid), {}],
        ['Ćićevac Đurđevo Žabari', g(tree.leaf), { userLabel: 'Ђорђе Ђукић (djordje.1969@firma.rs)' }],
        ['Korisnik j@leaf.rs je izmenio klaster Jovanovac-Markovac.', g(tree.leaf), {}],
        // E-mails and addresses (the address index, drizzle/0026): numbered e-mails, one ending a sentence,
        // IPs of one prefix, an e-mail in Cyrillic letters, a number glued to a word.
        ['Korisnik marko.123@firma.rs se prijavio.', g(tree.leaf), { userLabel: 'Марко Марковић (marko.123@firma.rs)', ip: '10.20.30.41' }],
        ['Neuspešna prijava: marko.1234@firma.rs.', null, { userLabel: 'marko.1234@firma.rs', ip: '10.20.30.4' }],
        ['Korisnik nikola.123@firma.rs je izmenio svoje podatke.', g(tree.mid), { ip: '110.20.30.40' }],
        ['Корисник јована.12@фирма.рс се пријавио.', g(tree.other), { ip: '10.2.3.4' }],
        ['Korisnik a_b+c-d@x.y.rs je dodao N-1234.', g(tree.root), { ip: '192.168.0.10', url: '/api/naselje?x=1.5' }],
      ];
      await addLogs(
        t.db,
        rows.map(([message, group, more], i) => ({ message, group, createdAt: new Date(Date.UTC(2022, 0, 1, 0, i)), ...more })),
      );
    });
    const searches: [string, string][] = [
      ['markovac', 'марковац'],
      ['Марковац', ''],
      ['radovanovic', 'радовановић'],
      ['retkovac', ''],
      ['eadbe', ''],
      ['deadbeef1-a3f5', ''],
      ['97/2025', ''],
      ['ac 12', ''],
      ['ller', ''],
      ['müller', 'милер'],
      ['klaster sirogojno', 'кластер сирогојно'],
      ['sirogojno 3', ''],
      ['ac-mar', ''],
      ['x9r', ''],
      ['ovac', 'овац'],
      ['zlatibor', 'златибор'],
      ['cicevac djurdjevo', 'ћићевац ђурђево'],
      ['djordje.1969', 'ђорђе.1969'],
      ['Korisnik', 'корисник'],
      ['nepostojeca rec', 'непостојећа реч'],
      ['marko.123', 'марко.123'],
      ['Marko.123@Firma.rs', ''],
      ['marko.1234@firma.rs.', ''],
      ['rko.12', ''],
      ['123@', ''],
      ['@firma.rs', '@фирма.рс'],
      ['firma.rs se', ''],
      ['rs.', ''],
      ['prijavio.', 'пријавио.'],
      ['jovana.12', 'јована.12'],
      ['10.20.30', ''],
      ['0.20.30.4', ''],
      ['10.20.30.40', ''],
      ['10.2.', ''],
      ['.1.5', ''],
      ['a_b+c-d@x.y', ''],
      ['b+c', ''],
      ['168.0.1', ''],
      ['(marko.123@firma.rs) 10.20', ''],
      ['marko.12 nikola.12', ''],
    ];
    // Each path in turn: a suffix index first (a rare word: the letters, the addresses or the narrower
    // of them), the window then the letter index, the window then the trigram index (no suffix index).
    // The Admin's every match, after the window, through the kept positions of its matches too (MATCH_INDEX:
    // every match kept and the positions reused; every 100th, read again on every request).
    type Use = (typeof NARROWING)['use'];
    type Indexing = Partial<typeof MATCH_INDEX> & { window?: typeof SEARCH_WINDOW };
    const paths: Record<string, [{ firstMax: number; rowsMax: number }, Use, Indexing?]> = {
      lettersFirst: [{ firstMax: Infinity, rowsMax: Infinity }, ['letters']],
      addressesFirst: [{ firstMax: Infinity, rowsMax: Infinity }, ['addresses']],
      narrowerFirst: [{ firstMax: Infinity, rowsMax: Infinity }, ['letters', 'addresses']],
      lettersAfterWindow: [{ firstMax: -1, rowsMax: Infinity }, ['letters']],
      addressesAfterWindow: [{ firstMax: -1, rowsMax: Infinity }, ['addresses']],
      trigrams: [{ firstMax: -1, rowsMax: -1 }, ['letters', 'addresses']],
      keptEveryMatch: [{ firstMax: Infinity, rowsMax: Infinity }, ['letters', 'addresses'], { min: -1, walkRows: 1 }],
      keptEvery100th: [{ firstMax: Infinity, rowsMax: Infinity }, ['letters', 'addresses'], { min: -1, walkRows: 1e9, keptMs: 0 }],
      // No suffix index and a window of one row: every match through the trigram index, kept.
      keptTrigrams: [{ firstMax: -1, rowsMax: -1 }, [], { min: -1, walkRows: 2, window: { rows: 1, max: 1 } }],
    };
    const callers: Record<string, () => string> = {
      Admin: () => adminToken,
      Rukovodilac: () => managerToken,
      'Zaposleni of the leaf': () => leafToken,
      'Zaposleni of the other group': () => otherToken,
    };

    const tens = Array.from(
      { length: Math.ceil(searches.length / 10) },
      (_, i) => [`texts ${i * 10 + 1}–${Math.min(searches.length, i * 10 + 10)}`, i] as const,
    );

    describe.each(Object.keys(paths))('%s', (path) => {
      describe.each(Object.keys(callers))('in the scope of the %s', (caller) => {
        it.each(tens)('%s', async (_, ten) => {
          const [limits, use, { window, ...indexing } = {}] = paths[path] as (typeof paths)[string];
          const token = (callers[caller] as () => string)();
          const kept = { ...LETTER_PATHS };
          const keptUse = NARROWING.use;
          const keptIndexing = { ...MATCH_INDEX };
          const keptWindow = { ...SEARCH_WINDOW };
          try {
            Object.assign(LETTER_PATHS, limits);
            NARROWING.use = use;
            Object.assign(MATCH_INDEX, keptIndexing, indexing);
            Object.assign(SEARCH_WINDOW, keptWindow, window);
            // The scope's rows as the plain list gives them, and the substring filter over them.
            const scoped: LogDto[] = (await list('/api/log?limit=50000', token)).json().logs;
            const text = (l: LogDto) => foldForSearch(`${l.message} ${l.user} ${l.ip} ${l.url}`);
            for (const [eng, srb] of searches.slice(ten * 10, ten * 10 + 10)) {
              const terms = [eng, srb].filter(Boolean).map(foldForSearch);
              const expected = scoped.filter((l) => terms.some((term) => text(l).includes(term))).map((l) => l._id);
              const query = `eng=${encodeURIComponent(eng)}&srb=${encodeURIComponent(srb)}`;
              const found = (await list(`/api/search/log?${query}&limit=50000`, token)).json();
              expect({ path, eng, srb, ids: found.logs.map((l: LogDto) => l._id) }).toEqual({ path, eng, srb, ids: expected });
              expect(found).toMatchObject({ totalLogs: expected.length, totalExact: true });
              // The last match alone on its page (past the newest 5,000 rows for the Admin: the window
              // misses it) and the page after it, empty. A page the window filled has an estimated total
              // (more than the pages show: the page is full); any other is counted.
              if (expected.length < 1000) {
                for (const page of [Math.max(1, expected.length), expected.length + 1]) {
                  const res = (await list(`/api/search/log?${query}&limit=1&page=${page}`, token)).json();
                  const ids = res.logs.map((l: LogDto) => l._id);
                  expect({ path, eng, page, ids }).toEqual({ path, eng, page, ids: expected.slice(page - 1, page) });
                  if (res.totalExact)
                    expect({ path, eng, page, total: res.totalLogs }).toEqual({ path, eng, page, total: expected.length });
                  else expect({ path, eng, page, more: res.totalLogs > page }).toEqual({ path, eng, page, more: true });
                }
              }
            }
          } finally {
            Object.assign(LETTER_PATHS, kept);
            NARROWING.use = keptUse;
            Object.assign(MATCH_INDEX, keptIndexing);
            Object.assign(SEARCH_WINDOW, keptWindow);
          }
        });
      });
    });

    it('answers the longest texts the query takes with nothing', async () => {
      // The longest texts the query takes (200 characters; 'љ' folds to two letters): one run of 400
      // letters, fifty runs of three, in either field.
      for (const text of ['љ'.repeat(200), 'abc-'.repeat(50), 'Ђž9'.repeat(66)]) {
        const res = await list(`/api/search/log?eng=${encodeURIComponent(text)}&srb=${encodeURIComponent(text.toUpperCase())}&page=3`);
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({ logs: [], totalLogs: 0, totalExact: true });
      }
    });

    it('has each suffix index find every row holding a text whose runs it keeps', async () => {
      // Each suffix index itself (sequential scan off: the index's keys, not the function, answer) finds
      // every row holding a text whose runs it keeps.
      const lookups = searches.flatMap(([eng, srb]) =>
        (['letters', 'addresses'] as const).map((index) => ({ eng, srb, index, fn: SUFFIX_INDEXES[index].fn })),
      );
      for (const { eng, srb, index, fn } of lookups) {
        const terms = searchTerms({ eng, srb });
        const query = index === 'letters' ? letterQuery(terms) : addressQuery(terms);
        if (query === null) continue;
        const like = sql.join(
          terms.map((term) => sql`search_text like ${`%${foldForSearch(term)}%`}`),
          sql` or `,
        );
        const missed = await t.db.transaction(async (tx) => {
          await tx.execute(sql`set local enable_seqscan = off`);
          await tx.execute(sql`set local enable_indexscan = off`);
          const byIndex = await tx.execute<{ id: string }>(
            sql`select id from audit_logs where ${fn}(search_text) @@ ${`${query} | '~long'`}::tsquery`,
          );
          const ids = new Set(byIndex.rows.map((r) => r.id));
          const all = await tx.execute<{ id: string }>(sql`select id from audit_logs where ${like}`);
          return all.rows.filter((r) => !ids.has(r.id));
        });
        expect({ eng, index, missed }).toEqual({ eng, index, missed: [] });
      }
    });

    it('sends e-mails and IPs to the address index, a word to the letter index', () => {
      expect(addressRuns('Marko.123@Firma.rs.')).toEqual(['marko.123@firma.rs']);
      expect(addressRuns('prijavio. 10.20.30 ab.')).toEqual(['10.20.30']);
      expect(addressQuery(['marko.123', 'марко.123'])).toBe("('marko.123':*) | ('marko.123':*)");
      expect(addressQuery(['markovac'])).toBeNull();
    });
  });
});

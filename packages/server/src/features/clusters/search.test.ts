import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/harness.js';
import { createCluster, createGroup, createSettlement, createUser, tokenFor } from '../../seed/factories.js';

/** Issue 14: the cluster search matches the cluster's name, its settlements' names and its responsible groups' names. */

const t = useTestApp();
let admin: string;

beforeAll(async () => {
  admin = await tokenFor(t.ctx, await createUser(t.db, { role: 'Admin' }));
  const sirogojno = await createSettlement(t.db, { naziv: 'Sirogojno', code: 'S-SIR' });
  const rozanstvo = await createSettlement(t.db, { naziv: 'Рожанство', code: 'S-ROZ' });
  const optika = await createGroup(t.db, { naziv: 'Optika Pretraga d.o.o.', cirilica: 'Оптика Претрага д.о.о.' });
  await createCluster(t.db, { naziv: 'Zlatibor Istok', naselja: [sirogojno.id], groupIds: [optika.id] });
  await createCluster(t.db, { naziv: 'Zlatibor Zapad', usputnaNaselja: [rozanstvo.id] });
  await createCluster(t.db, { naziv: 'Čajetina Centar' });
});

async function search(eng: string, srb: string) {
  const res = await t.call({
    method: 'GET',
    url: `/api/search/location?${new URLSearchParams({ eng, srb, page: '1', limit: '10' })}`,
    token: admin,
  });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json() as { locations: { naziv: string }[]; totalResults: number };
  expect(body.totalResults).toBe(body.locations.length);
  return body.locations.map((l) => l.naziv).sort();
}

describe('GET /api/search/location', () => {
  it('matches a settlement of the cluster (incidental ones too), in either script', async () => {
    expect(await search('сирог', 'sirog')).toEqual(['Zlatibor Istok']);
    expect(await search('rozans', 'рожанс')).toEqual(['Zlatibor Zapad']);
  });

  it('matches a responsible group by name, in either script', async () => {
    expect(await search('оптика претрага', 'optika pretraga')).toEqual(['Zlatibor Istok']);
  });

  it('still matches the cluster name, and nothing else', async () => {
    expect(await search('чајетина', 'cajetina')).toEqual(['Čajetina Centar']);
    expect(await search('zlatibor', 'златибор')).toEqual(['Zlatibor Istok', 'Zlatibor Zapad']);
    expect(await search('nema takvog', 'нема таквог')).toEqual([]);
  });
});

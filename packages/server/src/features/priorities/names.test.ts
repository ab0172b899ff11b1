import { beforeAll, describe, expect, it } from 'vitest';
import { said, useTestApp } from '../../../test/harness.js';
import { createUser, tokenFor } from '../../seed/factories.js';
import { PRIORITY_TEXTS } from './service.js';

/** Issue 14: priority names are unique with case and script folded. */

const t = useTestApp();
let admin: string;

beforeAll(async () => {
  admin = await tokenFor(t.ctx, await createUser(t.db, { role: 'Admin' }));
});

const create = (naziv: string, broj = 7) => t.call({ method: 'POST', url: '/api/priority', payload: { naziv, broj }, token: admin });

describe('priority names', () => {
  it('are unique with case and script folded; refused on naziv', async () => {
    expect((await create('Hitno')).statusCode).toBe(201);
    for (const naziv of ['ХИТНО', 'hitno']) {
      const res = await create(naziv, 8);
      expect(res.statusCode, naziv).toBe(409);
      expect(res.json()).toEqual({ message: said(PRIORITY_TEXTS.nameTaken), errors: { naziv: said(PRIORITY_TEXTS.nameTaken) } });
    }
    const other = (await create('Odloženo', 9)).json().priority;
    const rename = await t.call({ method: 'PATCH', url: `/api/priority/${other._id}`, payload: { naziv: 'Хитно', broj: 9 }, token: admin });
    expect(rename.statusCode).toBe(409);
  });
});

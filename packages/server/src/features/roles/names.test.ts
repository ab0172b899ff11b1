import { USERS } from '@trasa/domain';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { said, useTestApp } from '../../../test/harness.js';
import { roles } from '../../db/schema.js';
import { createUser, tokenFor } from '../../seed/factories.js';

/** Issue 14: roles can't be deleted, so a duplicate name would stay: names are unique, case and script folded. */

const t = useTestApp();
let admin: string;

beforeAll(async () => {
  admin = await tokenFor(t.ctx, await createUser(t.db, { role: 'Admin' }));
});

const create = (imeRole: string, kratakNaziv = 'R') =>
  t.call({ method: 'POST', url: '/api/role', payload: { imeRole, kratakNaziv }, token: admin });

describe('role names', () => {
  it('are unique with case and script folded, and never a built-in key; refused on imeRole', async () => {
    expect((await create('Inženjer na terenu', 'INŽ')).statusCode).toBe(201);
    for (const name of ['ИНЖЕЊЕР НА ТЕРЕНУ', 'inzenjer na terenu', 'Zaposleni', 'Запослени', 'gost']) {
      const res = await create(name);
      expect(res.statusCode, name).toBe(409);
      expect(res.json()).toEqual({ message: said(USERS.roleNameTaken), errors: { imeRole: said(USERS.roleNameTaken) } });
    }
    expect(await t.db.select().from(roles).where(eq(roles.imeRole, 'inzenjer na terenu'))).toEqual([]);
  });

  it('an edit keeps its own name and refuses another role’s', async () => {
    const a = (await create('Monter', 'MON')).json().role;
    expect((await create('Vozač', 'VOZ')).statusCode).toBe(201);
    const own = await t.call({
      method: 'PATCH',
      url: `/api/role/${a._id}`,
      payload: { imeRole: 'MONTER', kratakNaziv: 'MON' },
      token: admin,
    });
    expect(own.statusCode, own.body).toBe(200);
    const taken = await t.call({
      method: 'PATCH',
      url: `/api/role/${a._id}`,
      payload: { imeRole: 'Возач', kratakNaziv: 'MON' },
      token: admin,
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().errors).toEqual({ imeRole: said(USERS.roleNameTaken) });
  });

  it('two concurrent creates of one name: one wins', async () => {
    const answers = await Promise.all(['Dispečer', 'ДИСПЕЧЕР', 'dispecer'].map((n) => create(n)));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 409, 409]);
  });
});

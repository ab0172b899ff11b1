import { INVENTORY, type InvTypeDto } from '@trasa/domain';
import { describe, expect, it } from 'vitest';
import { said } from '../../../test/harness.js';
import { client, json, newType, setupInventory, t } from './inventorySetup.js';

setupInventory();
describe('codebook', () => {
  it('follows the price in dinars for RSD, needs cenaRsd otherwise, and keeps names unique within a tip (folded)', async () => {
    const ont = await newType({ naziv: 'ONT terminal GPON', tip: 'Oprema', cena: '4.500,00'.replace('.', ''), valuta: 'RSD', cenaRsd: 1 });
    expect(ont).toMatchObject({ cena: 4500, cenaRsd: 4500, valuta: 'RSD', jedinica: 'kom' });
    const missing = await t.call({
      method: 'POST',
      url: '/api/inv-type',
      token: client,
      payload: { naziv: 'Switch', tip: 'Oprema', cena: 120, valuta: 'EUR' },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors.cenaRsd).toBe(said(INVENTORY.required));
    const sw = await newType({ naziv: 'Switch 24 porta', tip: 'Oprema', cena: 120, valuta: 'EUR', cenaRsd: '14.070,50'.replace('.', '') });
    expect(sw).toMatchObject({ cena: 120, cenaRsd: 14070.5, valuta: 'EUR' });
    const dup = await t.call({
      method: 'POST',
      url: '/api/inv-type',
      token: client,
      payload: { naziv: 'СВИЦХ 24 ПОРТА', tip: 'Oprema', cena: 1, valuta: 'RSD' },
    });
    expect(dup.statusCode).toBe(201); // 'Свицх' folds to 'svich', not 'switch'
    const same = await t.call({
      method: 'POST',
      url: '/api/inv-type',
      token: client,
      payload: { naziv: 'ont TERMINAL gpon', tip: 'Oprema', cena: 1, valuta: 'RSD' },
    });
    expect(same.statusCode).toBe(409);
    expect(same.json().errors.naziv).toBe(said(INVENTORY.typeNameTaken));
    const cyr = await t.call({
      method: 'POST',
      url: '/api/inv-type',
      token: client,
      payload: { naziv: 'ОНТ терминал ГПОН', tip: 'Oprema', cena: 1, valuta: 'RSD' },
    });
    expect(cyr.statusCode).toBe(409);
    // The same name in another tip is another entry.
    expect(
      (
        await t.call({
          method: 'POST',
          url: '/api/inv-type',
          token: client,
          payload: { naziv: 'ONT terminal GPON', tip: 'Radovi', cena: 1, valuta: 'RSD' },
        })
      ).statusCode,
    ).toBe(201);
    const bad = await t.call({
      method: 'POST',
      url: '/api/inv-type',
      token: client,
      payload: { naziv: 'X', tip: 'Hrana', cena: '-5', valuta: 'DIN' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toMatchObject({
      tip: said(INVENTORY.invalidTip),
      valuta: said(INVENTORY.invalidValuta),
      cena: said(INVENTORY.mustBeNumber),
    });
    const list = json(await t.call({ method: 'GET', url: '/api/inv-type?tip=Radovi', token: client })) as { invTypes: InvTypeDto[] };
    expect(list.invTypes.every((x) => x.tip === 'Radovi')).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { menuFor } from './menu.js';
import { canOpen } from './routes.js';

const labels = (role: string, type?: Parameters<typeof menuFor>[1]) => menuFor(role, type).map((i) => i.label);

describe('side menu (spec 1 §2.3)', () => {
  it('gives the Admin the fourteen entries in order', () => {
    expect(labels('Admin')).toEqual([
      'Активности у току',
      'Отворена питања',
      'Корисници',
      'Кластери',
      'Групе',
      'Уговори',
      'Инвентар',
      'Извештаји',
      'ИЈО',
      'Шифарници',
      'Мејл сервер',
      'Логови',
      'Мој налог',
      'Коментари',
    ]);
  });

  it('gives the Employee seven entries, plus inventory for Naručilac and holders for ПИУ ТА', () => {
    expect(labels('Zaposleni')).toEqual(['Обавештења', 'Кластери', 'Отворена питања', 'Извештаји', 'Логови', 'Мој налог', 'Коментари']);
    expect(labels('Zaposleni', 'NARUCILAC')).toContain('Инвентар');
    expect(labels('Zaposleni', 'NARUCILAC')).not.toContain('ИЈО');
    expect(labels('Zaposleni', 'PIU_TA')).toContain('ИЈО');
    expect(labels('Zaposleni', 'IZVODJAC')).toHaveLength(7);
  });

  it('gives the Manager ten entries and the guest none', () => {
    expect(labels('Rukovodilac')).toEqual([
      'Отворена питања',
      'Корисници',
      'Роле',
      'Групе',
      'Обавештења',
      'Кластери',
      'Извештаји',
      'Логови',
      'Мој налог',
      'Коментари',
    ]);
    expect(menuFor('Gost')).toEqual([]);
    expect(menuFor(null)).toEqual([]);
  });

  it('offers only screens the role may open', () => {
    for (const role of ['Admin', 'Rukovodilac', 'Zaposleni'])
      for (const type of [null, 'NARUCILAC', 'PIU_TA'] as const)
        for (const item of menuFor(role, type)) expect(canOpen(role, item.key)).toBe(true);
  });
});

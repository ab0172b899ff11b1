import { expect, test } from '@playwright/test';
import { DEMO_PASSWORD } from './support/api';
import { menuLabels, signIn } from './support/ui';

const EMPLOYEE = ['Обавештења', 'Кластери', 'Отворена питања', 'Извештаји', 'Логови', 'Мој налог', 'Коментари'];

const cases: { who: string; email: string; menu: string[] }[] = [
  {
    who: 'Rukovodilac',
    email: 'zoran.ilic@optikagradnja.rs',
    menu: ['Отворена питања', 'Корисници', 'Роле', 'Групе', 'Обавештења', 'Кластери', 'Извештаји', 'Логови', 'Мој налог', 'Коментари'],
  },
  { who: 'Zaposleni of a contractor', email: 'stefan.markovic@optikagradnja.rs', menu: EMPLOYEE },
  {
    who: 'Zaposleni of the client (Naručilac)',
    email: 'nenad.stojanovic@mit.gov.rs',
    menu: ['Обавештења', 'Кластери', 'Отворена питања', 'Извештаји', 'Логови', 'Инвентар', 'Мој налог', 'Коментари'],
  },
  {
    who: 'Zaposleni of ПИУ ТА',
    email: 'milica.pavlovic@piuta.rs',
    menu: ['Обавештења', 'Кластери', 'Отворена питања', 'Извештаји', 'Логови', 'ИЈО', 'Мој налог', 'Коментари'],
  },
  {
    who: 'Admin',
    email: 'ana.admin@mit.gov.rs',
    menu: [
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
    ],
  },
  { who: 'Gost', email: 'snezana.jankovic@primer.rs', menu: [] },
];

for (const c of cases) {
  test(`${c.who} sees exactly their menu`, async ({ page }) => {
    await signIn(page, c.email, DEMO_PASSWORD);
    await expect(menuLabels(page)).toHaveText(c.menu);
    // Every entry opens a screen (built or 'u izradi'), never the not-found page.
    for (const label of c.menu) {
      await menuLabels(page)
        .filter({ hasText: new RegExp(`^${label}$`) })
        .first()
        .click();
      await expect(page.getByText('Страница коју тражите не постоји')).toHaveCount(0);
    }
  });
}

test('under 550 px the menu is a drawer opened by the menu button; wider it stays beside the page', async ({ page }) => {
  await page.setViewportSize({ width: 500, height: 800 });
  await signIn(page, 'stefan.markovic@optikagradnja.rs', DEMO_PASSWORD);
  const nav = page.getByRole('navigation', { name: 'Главни мени' });
  await expect(nav).toHaveCount(0);
  await page.getByRole('button', { name: 'Мени' }).click();
  await expect(nav).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(nav).toHaveCount(0);
  await page.setViewportSize({ width: 1200, height: 800 });
  await expect(nav).toBeVisible();
});

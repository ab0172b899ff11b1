import ExcelJS from 'exceljs';
import { CLUSTER_COLUMNS, type Column, headersOf, USER_COLUMNS } from './columns.js';

/**
 * The import templates (GET /api/files/korisnici/ and /api/files/klasteri/): the header row of the
 * first sheet is what the import reads; a second sheet explains the columns. The clusters template
 * also serves the settlements import, which reads its settlement columns.
 */
export const TEMPLATES = {
  korisnici: {
    fileName: 'korisnici.xlsx',
    columns: USER_COLUMNS as readonly Column[],
    notes: [
      ['Име, Презиме, Имејл', 'Обавезни. Имејл је кључ: особа чији имејл већ постоји се прескаче.'],
      ['Рола', 'Назив или кратак назив роле. Празно: Запослени ако је група наведена, иначе Гост.'],
      ['Група', 'Назив, ћирилични или кратак назив групе. Admin и Gost немају групу; остале роле је морају имати.'],
      ['Лозинка', 'Не уноси се: сваки нови налог добија имејл са линком за постављање лозинке.'],
    ],
  },
  klasteri: {
    fileName: 'klasteri.xlsx',
    columns: CLUSTER_COLUMNS as readonly Column[],
    notes: [
      ['Кластер', 'Назив кластера (обавезан за увоз кластера). Један ред по насељу кластера; кластер који већ постоји се прескаче.'],
      ['ID насеља, Назив насеља', 'Обавезни за насеље. Насеље којег нема у шифарнику додаје се из реда; ID је кључ.'],
      ['Општина', 'Више општина одвојених зарезом.'],
      ['Бројеви', 'Празно или цео број ≥ 0.'],
      ['Успутно насеље', 'да или не (празно: не).'],
      ['Одговорне групе', 'Називи група одвојени зарезом; довољно у једном реду кластера.'],
      ['Индикативна дужина, Уговорена вредност', 'Број, са тачком или зарезом.'],
      ['Уговор', 'Назив или број општег уговора који није завршен.'],
      ['Увоз насеља', 'Из истог шаблона чита колоне насеља; колоне кластера занемарује.'],
    ],
  },
} as const;
export type TemplateName = keyof typeof TEMPLATES;

export async function templateWorkbook(name: TemplateName): Promise<Buffer> {
  const t = TEMPLATES[name];
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Траса';
  const sheet = workbook.addWorksheet('Подаци');
  sheet.addRow(headersOf(t.columns));
  sheet.getRow(1).font = { bold: true };
  sheet.columns.forEach((c) => {
    c.width = 22;
  });
  sheet.views = [{ state: 'frozen', ySplit: 1 }];
  const notes = workbook.addWorksheet('Упутство');
  notes.addRow(['Колона', 'Правило']).font = { bold: true };
  for (const row of t.notes) notes.addRow([...row]);
  notes.getColumn(1).width = 36;
  notes.getColumn(2).width = 110;
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

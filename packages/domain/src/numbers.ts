/**
 * Numbers as Serbs write them, the same on every screen, on the school's public page, in mail and in PDF
 * exports: a dot between thousands, a decimal comma ('1.250,5 m'); money with two decimals and 'RSD'
 * ('58.320,00 RSD', formatRsd in messages/reports.ts). Written by hand, not with Intl: the result does not
 * depend on the ICU data of the browser or of Node.
 */

/** The whole part with a dot between thousands: '1250' → '1.250'. */
function grouped(whole: string): string {
  return whole.replace(/\B(?=(\d{3})+(?!\d))/g, '.');
}

/**
 * A quantity or length with at most `decimals` decimals (trailing zeros dropped), and its unit when given:
 * formatQuantity(1250.5, 'm') → '1.250,5 m', formatQuantity(3) → '3'. '' for no number.
 */
export function formatQuantity(value: number | null | undefined, unit?: string | null, decimals = 3): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '';
  const fixed = Math.abs(value).toFixed(decimals);
  const [whole = '0', frac = ''] = fixed.split('.');
  const shownFrac = frac.replace(/0+$/, '');
  const sign = value < 0 && (Number(whole) !== 0 || shownFrac !== '') ? '-' : '';
  const text = `${sign}${grouped(whole)}${shownFrac ? `,${shownFrac}` : ''}`;
  return unit ? `${text} ${unit}` : text;
}

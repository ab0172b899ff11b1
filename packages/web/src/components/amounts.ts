import { type AmountRefusal, cleanAmountInput, understoodAmount } from '@trasa/domain';
import { ACTIVITIES } from '../messages';

/**
 * Money and quantities as typed (domain amounts.ts): the keystroke filter with its reason in the user's
 * script, and the amount as understood ('= 2,50 RSD') for the helper text beside the field.
 */
export type AmountKeystroke = { value: string; hint: string | null };

export function refusalText(refused: AmountRefusal, decimals: number): string {
  if (refused === 'separator') return ACTIVITIES.oneSeparator;
  if (refused === 'decimals') return ACTIVITIES.maxDecimals(decimals);
  return ACTIVITIES.digitsOnly;
}

/** The field's next text: `raw` when it keeps the rule, else `previous` with why the keystroke was refused. */
export function amountKeystroke(raw: string, previous: string, decimals: number): AmountKeystroke {
  const r = cleanAmountInput(raw, previous, decimals);
  return { value: r.value, hint: r.refused ? refusalText(r.refused, decimals) : null };
}

/** The helper text of an amount field: the refusal of the last keystroke, else the amount as understood. */
export function amountHelper(value: string, decimals: number, unit: string, hint: string | null): string | null {
  return hint ?? understoodAmount(value, decimals, unit);
}

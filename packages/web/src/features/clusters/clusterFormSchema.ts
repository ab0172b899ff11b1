import { clusterSchema, decimalInput, moneyInput } from '@trasa/domain';
import { z } from 'zod';
import { CLUSTERS } from '../../messages';

/** A decimal typed as text with a dot or a comma; an empty value is left out of the payload (spec 2 §5). */
const optionalOf = (rule: typeof decimalInput) =>
  z.string().transform((value, ctx) => {
    if (value.trim() === '') return undefined;
    const parsed = rule.safeParse(value);
    if (parsed.success) return parsed.data;
    ctx.addIssue({ code: 'custom', message: CLUSTERS.mustBeNumber });
    return z.NEVER;
  });
const optionalDecimal = optionalOf(decimalInput);
const optionalMoney = optionalOf(moneyInput);

/**
 * The settlement sub-form (spec 2 §2): rows, each holding one settlement's _id ('' while not chosen yet).
 * What is submitted is the list of chosen ids; empty rows are dropped.
 */
const settlementRows = z
  .array(z.object({ naselje: z.string() }))
  .transform((rows) => rows.map((row) => row.naselje).filter((id) => id !== ''))
  .pipe(clusterSchema.shape.naselja.unwrap());

/** The domain's cluster schema with the form's fields: the contract '' for none, decimals as typed, settlement rows. */
export const clusterFormSchema = clusterSchema.extend({
  ugovor: z.string(),
  indikativnaDuzinaKlastera: optionalDecimal,
  ugovorenaVrednostKlastera: optionalMoney,
  naselja: settlementRows,
  usputnaNaselja: settlementRows,
});
export type ClusterFormValues = z.input<typeof clusterFormSchema>;
export type ClusterFormOut = z.output<typeof clusterFormSchema>;

/** The two settlement lists of the form. */
export type SettlementListName = 'naselja' | 'usputnaNaselja';

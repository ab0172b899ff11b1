import type { FieldErrors, FieldValues, Resolver } from 'react-hook-form';

/**
 * A resolver that adds rules the schema can't know (e.g. a group required unless the chosen role is
 * groupless), reported together with the schema's own messages.
 */
export function withExtraErrors<I extends FieldValues, C, O>(
  base: Resolver<I, C, O>,
  extra: (values: I) => FieldErrors<I>,
): Resolver<I, C, O> {
  return async (values, context, options) => {
    const result = await base(values, context, options);
    const more = extra(values);
    if (Object.keys(more).length === 0) return result;
    return { values: {}, errors: { ...result.errors, ...more } };
  };
}

export const PRIORITIES_KEY = ['priorities'] as const;

export const SETTLEMENTS_KEY = ['settlements'] as const;

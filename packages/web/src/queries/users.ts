export const USERS_KEY = ['users'] as const;

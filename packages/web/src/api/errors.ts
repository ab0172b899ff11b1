import { ApiError } from './client';

/** The server's message when it sent one, otherwise the screen's default (spec 1 §8). */
export function messageOf(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.serverMessage ? error.serverMessage : fallback;
}

/** The server's message for one field, when a validation or conflict answer names it. */
export function fieldErrorOf(error: unknown, field: string): string | undefined {
  return error instanceof ApiError ? error.errors?.[field] : undefined;
}

export function statusOf(error: unknown): number | undefined {
  return error instanceof ApiError ? error.status : undefined;
}

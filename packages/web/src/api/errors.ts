import { COMMON } from '@trasa/domain/messages/common';
import { inScript } from '../script';
import { ApiError } from './client';

/**
 * The server's message when it sent one; for a call that never reached the server, COMMON.networkUnreachable
 * (spec 2 §8's 'Network error: server unreachable or CORS blocked', in Serbian, in the user's script);
 * otherwise the screen's default (spec 1 §8).
 */
export function messageOf(error: unknown, fallback: string): string {
  if (!(error instanceof ApiError)) return fallback;
  if (error.serverMessage) return error.serverMessage;
  return error.status === 0 ? inScript(COMMON.networkUnreachable) : fallback;
}

/** The server's message for one field, when a validation or conflict answer names it. */
export function fieldErrorOf(error: unknown, field: string): string | undefined {
  return error instanceof ApiError ? error.errors?.[field] : undefined;
}

export function statusOf(error: unknown): number | undefined {
  return error instanceof ApiError ? error.status : undefined;
}

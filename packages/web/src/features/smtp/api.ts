import type {
  MailStatusKey,
  MessageResponse,
  OutboxPage,
  OutboxReleased,
  SmtpCreateBody,
  SmtpDto,
  SmtpEditBody,
  SmtpList,
  SmtpSingle,
  SmtpTestResult,
} from '@trasa/domain';
import { api } from '../../api/client';
import type { PageParams } from '../../api/users';

/** SMTP servers and the outbox (docs/api/smtp.md): /api/smtp, /api/smtp/{id}, /api/smtp/outbox. */

export type { SmtpDto };
export type SmtpSaved = MessageResponse & { smtp: SmtpDto };

export const SMTP_KEY = ['smtp'] as const;
export const OUTBOX_KEY = ['smtp', 'outbox'] as const;

export async function listSmtps(signal?: AbortSignal): Promise<SmtpDto[]> {
  return (await api<SmtpList>('/smtp', { signal })).smtps;
}

export async function getSmtp(id: string, signal?: AbortSignal): Promise<SmtpDto> {
  return (await api<SmtpSingle>(`/smtp/${encodeURIComponent(id)}`, { signal })).smtp;
}

export function createSmtp(body: SmtpCreateBody): Promise<SmtpSaved> {
  return api('/smtp/', { method: 'POST', body });
}

export function editSmtp(id: string, body: SmtpEditBody): Promise<SmtpSaved> {
  return api(`/smtp/${encodeURIComponent(id)}`, { method: 'PATCH', body });
}

export function deleteSmtp(id: string): Promise<MessageResponse> {
  return api(`/smtp/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export function testSmtp(id: string, to?: string): Promise<SmtpTestResult> {
  return api(`/smtp/${encodeURIComponent(id)}/test`, { method: 'POST', body: to ? { to } : {} });
}

export function listOutbox(query: PageParams & { status: MailStatusKey | '' }, signal?: AbortSignal): Promise<OutboxPage> {
  return api('/smtp/outbox', { signal, query });
}

export function releaseHeld(): Promise<OutboxReleased> {
  return api('/smtp/outbox/release', { method: 'POST', body: {} });
}

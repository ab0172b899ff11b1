import type { MailStatusKey } from '../messages/smtp.js';

/** An SMTP server (spec 3 §3 "SMTP server"); the password is never part of an answer. */
export type SmtpDto = { _id: string; host: string; port: number; email: string; inUse: boolean };
/** GET /api/smtp */
export type SmtpList = { smtps: SmtpDto[] };
/** GET /api/smtp/{id} */
export type SmtpSingle = { smtp: SmtpDto };
/** POST /api/smtp/{id}/test */
export type SmtpTestResult = { message: string; to: string };

/** One mail of the outbox (GET /api/smtp/outbox). */
export type OutboxMailDto = {
  _id: string;
  to: string;
  subject: string;
  text: string;
  status: MailStatusKey;
  error: string | null;
  origin: string | null;
  attempts: number;
  createdAt: string;
};
export type OutboxPage = { outbox: OutboxMailDto[]; totalResults: number; held: number };
export type OutboxReleased = { released: number; message: string };

import type { MailStatusKey, OutboxMailDto, SmtpDto } from '@trasa/domain';
import type { mailOutbox, smtpServers } from '../../db/schema.js';

/** An SMTP server as answered: never the password (sealed or not). */
export function presentSmtp(row: typeof smtpServers.$inferSelect): SmtpDto {
  return { _id: row.id, host: row.host, port: row.port, email: row.email, inUse: row.inUse };
}

export function presentOutboxMail(m: typeof mailOutbox.$inferSelect): OutboxMailDto {
  return {
    _id: m.id,
    to: m.to,
    subject: m.subject,
    text: m.text,
    status: m.status as MailStatusKey,
    error: m.error,
    origin: m.origin,
    attempts: m.attempts,
    createdAt: m.createdAt.toISOString(),
  };
}

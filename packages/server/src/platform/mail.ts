import { eq } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type { Logger } from 'pino';
import { mailOutbox, smtpServers } from '../db/schema.js';
import type { Db } from './database.js';
import { decrypt } from './secrets.js';

export type Mail = { to: string; subject: string; text: string; html?: string };
export type MailStatus = 'sent' | 'failed' | 'outbox';

export type Mailer = { send(mail: Mail): Promise<MailStatus> };

/**
 * Sends through the SMTP server in use (spec 3 "SMTP server"); with none in use the mail is kept in
 * the outbox table and written to the server log, so sign-up and reset work on a fresh install.
 * Every mail leaves a row in the outbox with its outcome.
 */
export function createMailer(deps: { db: Db; secret: string; log: Logger }): Mailer {
  return {
    async send(mail) {
      const [server] = await deps.db.select().from(smtpServers).where(eq(smtpServers.inUse, true)).limit(1);
      let status: MailStatus = 'outbox';
      let error: string | null = null;
      if (server) {
        try {
          const transport = nodemailer.createTransport({
            host: server.host,
            port: server.port,
            secure: server.port === 465,
            auth: { user: server.email, pass: decrypt(deps.secret, server.passwordEnc) },
            connectionTimeout: 10_000,
            greetingTimeout: 10_000,
            socketTimeout: 20_000,
            tls: { rejectUnauthorized: process.env.SMTP_TLS_REJECT_UNAUTHORIZED !== 'false' },
          });
          await transport.sendMail({ from: server.email, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
          status = 'sent';
        } catch (e) {
          status = 'failed';
          error = e instanceof Error ? e.message : String(e);
          deps.log.error({ to: mail.to, subject: mail.subject, err: error }, 'mail could not be sent');
        }
      } else {
        deps.log.info({ to: mail.to, subject: mail.subject, text: mail.text }, 'no SMTP server in use: mail kept in the outbox');
      }
      await deps.db.insert(mailOutbox).values({ ...mail, html: mail.html ?? null, status, error });
      return status;
    },
  };
}

import { asTyped, IN_PROGRESS, SCRIPTS, type Script, SMTP, toScript } from '@trasa/domain';
import { Cron } from 'croner';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { groups, groupTypes, mailOutbox, roles, smtpServers, users } from '../../db/schema.js';
import { activities, activityCatalogue } from '../../db/schema-activities.js';
import { clusters } from '../../db/schema-clusters.js';
import type { Db } from '../../platform/database.js';
import { type Mailer, plainName } from '../../platform/mail.js';
import { scriptOfUser } from '../../platform/script.js';
import { APP_TIME_ZONE } from '../../platform/time.js';
import { activityColourSql, todayOf } from '../../shared/activityColour.js';
import { groupsSeeingClusterCondition } from '../clusters/policy.js';

/**
 * The daily deadline digest (server-behaviour.md "Notifications"; docs/decisions.md "Deadline digest"):
 * each Zaposleni whose group's type is among an activity's `odgovoran` and whose group sees the cluster
 * (clusters/policy.ts groupsSeeingClusterCondition) gets one mail listing the activities in progress that
 * turned orange or red that day — the domain's colour today differs from its colour yesterday.
 *
 * Sent only while an SMTP server is in use. Runs under a PostgreSQL advisory lock (one server at a
 * time); the mail itself is the "already sent today" marker: a recipient who has a 'digest' mail with
 * the day's subject in the outbox (whatever its outcome: a failed one is retried by the mailer) gets no
 * second one. Without a job table (a migration) that is per recipient, which also resumes a run that
 * stopped half-way.
 */

export type DigestDeps = { db: Db; mailer: Mailer; log: Logger; appUrl: string };
export type DigestResult = { sent: number; skipped?: 'no-smtp' | 'locked' };

type TurnedRow = {
  user_id: string;
  email: string;
  ime: string;
  pismo: string;
  activity_id: string;
  naziv: string;
  code: string;
  cluster: string;
  rok: string;
  colour: 'orange' | 'red';
};

/** DD.MM.YYYY of YYYY-MM-DD. */
const shown = (date: string) => `${date.slice(8, 10)}.${date.slice(5, 7)}.${date.slice(0, 4)}.`;

const previousDay = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);

/** Who gets which activities today: one row per recipient and activity. */
async function turnedToday(db: Db, today: string): Promise<TurnedRow[]> {
  const now = activityColourSql(today);
  const before = activityColourSql(previousDay(today));
  const result = await db.execute<TurnedRow>(sql`
    select ${users.id} as user_id, ${users.email} as email, ${users.ime} as ime, ${users.pismo} as pismo,
      ${activities.id} as activity_id, ${activityCatalogue.naziv} as naziv, ${activities.code} as code,
      ${clusters.naziv} as cluster, ${activities.rokZavrsetka}::text as rok, ${now} as colour
    from ${activities}
    join ${activityCatalogue} on ${activityCatalogue.code} = ${activities.code}
    join ${clusters} on ${clusters.id} = ${activities.clusterId}
    join ${groups} on true
    join ${groupTypes} on ${groupTypes.id} = ${groups.typeId} and ${groupTypes.code} = any(${activityCatalogue.odgovoran})
    join ${users} on ${users.groupId} = ${groups.id}
    join ${roles} on ${roles.id} = ${users.roleId}
    where ${activities.status} = ${IN_PROGRESS} and ${activities.rokZavrsetka} is not null
      and ${now} in ('orange', 'red') and ${now} <> ${before}
      and ${roles.baseRole} = 'Zaposleni' and ${users.status} = 'aktivan' and ${users.deletedAt} is null
      and ${groupsSeeingClusterCondition(activities.clusterId)}
    order by ${users.email}, ${activities.rokZavrsetka}, ${clusters.naziv}, ${activityCatalogue.position}`);
  return result.rows;
}

function digestText(appUrl: string, ime: string, rows: TurnedRow[]): string {
  const lines = rows.map((r) =>
    SMTP.digestLine(
      `${r.code} ${r.naziv}`,
      asTyped(r.cluster),
      shown(r.rok),
      r.colour === 'red' ? SMTP.digestRed : SMTP.digestOrange,
      asTyped(`${appUrl}/app/aktivnost/${r.activity_id}`),
    ),
  );
  return `${SMTP.digestIntro(plainName(ime))}\n\n${lines.join('\n')}\n\n${SMTP.digestOutro}`;
}

/** One run for `today` (YYYY-MM-DD, the UTC day the colours count in); answers how many mails it sent. */
export async function runDeadlineDigest(deps: DigestDeps, opts: { today?: string } = {}): Promise<DigestResult> {
  const today = opts.today ?? todayOf();
  const [server] = await deps.db.select({ id: smtpServers.id }).from(smtpServers).where(eq(smtpServers.inUse, true)).limit(1);
  if (!server) return { sent: 0, skipped: 'no-smtp' };
  return deps.db.transaction(async (tx) => {
    // Held until the run ends: another server's run (or a second timer) skips instead of waiting.
    const locked = await tx.execute<{ ok: boolean }>(sql`select pg_try_advisory_xact_lock(hashtext('trasa:deadline-digest')) as ok`);
    if (!locked.rows[0]?.ok) return { sent: 0, skipped: 'locked' as const };
    // The day's subject in either script: a recipient who changed script since gets no second mail.
    const subjectOf = (script: Script) => toScript(SMTP.digestSubject(shown(today)), script);
    const daySubjects = SCRIPTS.map(subjectOf);
    const byUser = new Map<string, TurnedRow[]>();
    for (const row of await turnedToday(deps.db, today)) {
      const list = byUser.get(row.email) ?? [];
      list.push(row);
      byUser.set(row.email, list);
    }
    let sent = 0;
    for (const [email, rows] of byUser) {
      const to = email.trim().toLowerCase();
      // In the recipient's script (users.pismo).
      const script = scriptOfUser(rows[0]?.pismo);
      const subject = subjectOf(script);
      const [already] = await deps.db
        .select({ id: mailOutbox.id })
        .from(mailOutbox)
        .where(and(eq(mailOutbox.to, to), eq(mailOutbox.origin, 'digest'), inArray(mailOutbox.subject, daySubjects)))
        .limit(1);
      if (already) continue;
      await deps.mailer.send({ to, script, subject, text: digestText(deps.appUrl, rows[0]?.ime ?? '', rows), origin: 'digest' });
      sent++;
    }
    if (sent > 0) deps.log.info({ today, sent }, 'deadline digest sent');
    return { sent };
  });
}

/**
 * Runs the digest every hour from 07:00 to 23:00 in the application's time zone (platform/time.ts): the first
 * run of the day sends it, later ones find it sent (and catch a server that was down, or an SMTP server
 * set up during the day). Answers a stop function.
 */
export function startDeadlineDigest(deps: DigestDeps, timezone = APP_TIME_ZONE): () => void {
  const job = new Cron('0 7-23 * * *', { timezone, protect: true }, async () => {
    try {
      await runDeadlineDigest(deps);
    } catch (err) {
      deps.log.error({ err }, 'deadline digest failed');
    }
  });
  return () => job.stop();
}

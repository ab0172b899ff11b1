import {
  assignableRoles,
  asTyped,
  GROUPLESS_ROLES,
  IMPORTS,
  type ImportDocument,
  type ImportReportRow,
  importUserRowSchema,
  isReservedGroupName,
  type RoleKey,
} from '@trasa/domain';
import { sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { groups, roles, users } from '../../db/schema.js';
import { writeLog } from '../../platform/audit.js';
import type { Actor } from '../../platform/auth.js';
import { importMailer } from '../../platform/mail.js';
import { sendPasswordSetup } from '../account/service.js';
import { groupCondition, scopeOf } from '../groups/policy.js';
import type { RequestInfo } from '../users/service.js';
import { keyedRows, USER_COLUMNS } from './columns.js';
import { NameIndex } from './names.js';
import { chunks, parseErrors, Report, rowError } from './report.js';
import type { UploadedSheet } from './upload.js';

/** A password hash nothing verifies against: an imported account gets its password through the mailed link. */
export const NO_PASSWORD = '!uvezen';

type Candidate = {
  row: ImportReportRow;
  ime: string;
  prezime: string;
  email: string;
  roleId: string;
  groupId: string | null;
};

/**
 * POST /api/user/excel-import (Admin, Rukovodilac): each row a person, known by e-mail. The role and
 * the group are given by name (either script); the rules of the create form hold: a Rukovodilac gives
 * only the roles they may and only groups of their subtree, Admin and Gost have no group, other roles
 * need one. Without a role the person is a Zaposleni of the named group, or a Gost. An e-mail already
 * registered is left alone (re-importing changes nothing). Accounts are active and get a mail with a
 * link to choose their password.
 */
export async function importUsers(ctx: AppContext, actor: Actor, sheet: UploadedSheet, req: RequestInfo): Promise<ImportDocument> {
  const report = new Report();
  const allowed = assignableRoles(actor.role) as readonly string[];
  const roleRows = (await ctx.db.select().from(roles)).filter((r) => allowed.includes(r.baseRole));
  // A built-in role is named by its name, short name and key; an extra role by its name and short name
  // (its base key names the built-in role, never it). A built-in role wins a name it shares.
  const roleByName = new NameIndex(
    roleRows,
    (r) => [r.imeRole, r.kratakNaziv, r.builtin ? r.baseRole : null],
    (r) => (r.builtin ? 1 : 0),
  );
  const defaultRole = (base: RoleKey) => roleRows.find((r) => r.builtin && r.baseRole === base) ?? null;
  const scope = await scopeOf(ctx.db, actor);
  const groupRows = (
    await ctx.db
      .select({ id: groups.id, naziv: groups.naziv, kratakNaziv: groups.kratakNaziv, cirilica: groups.cirilica, reserved: groups.reserved })
      .from(groups)
      .where(groupCondition(scope))
  ).filter((g) => !g.reserved && !isReservedGroupName(g.naziv) && !isReservedGroupName(g.cirilica));
  const groupByName = new NameIndex(groupRows, (g) => [g.naziv, g.cirilica, g.kratakNaziv]);

  const candidates: Candidate[] = [];
  const seen = new Set<string>();
  for await (const { row, values } of keyedRows(sheet.rows(), USER_COLUMNS, ['ime', 'prezime', 'email'])) {
    const entry = report.add(row, [values.ime, values.prezime].filter(Boolean).join(' ') || values.email);
    const parsed = importUserRowSchema.safeParse(values);
    const key = values.email.trim().toLowerCase();
    if (!parsed.success) {
      parseErrors(entry, key, parsed.error);
      continue;
    }
    const groupFound = values.grupa ? groupByName.resolve(values.grupa) : null;
    const group = groupFound?.kind === 'one' ? groupFound.item : undefined;
    const roleFound = values.rola ? roleByName.resolve(values.rola) : null;
    const role = roleFound ? (roleFound.kind === 'one' ? roleFound.item : null) : defaultRole(values.grupa ? 'Zaposleni' : 'Gost');
    if (roleFound?.kind === 'many') {
      rowError(
        entry,
        key,
        IMPORTS.ambiguousRole(
          asTyped(values.rola),
          roleFound.items.map((r) => asTyped(r.imeRole)),
        ),
      );
    } else if (!role) rowError(entry, key, IMPORTS.unknownRole(values.rola ? asTyped(values.rola) : values.grupa ? 'Zaposleni' : 'Gost'));
    const groupless = !!role && (GROUPLESS_ROLES as readonly string[]).includes(role.baseRole);
    if (role && !groupless && !values.grupa) rowError(entry, key, IMPORTS.groupNeeded);
    if (role && !groupless && groupFound?.kind === 'many') {
      rowError(
        entry,
        key,
        IMPORTS.ambiguousGroup(
          asTyped(values.grupa),
          groupFound.items.map((g) => asTyped(g.naziv)),
        ),
      );
    } else if (role && !groupless && values.grupa && !group) rowError(entry, key, IMPORTS.unknownGroup(asTyped(values.grupa)));
    if (groupless && values.grupa) entry.warnings.push(IMPORTS.groupIgnored);
    if (seen.has(parsed.data.email)) rowError(entry, key, `${IMPORTS.duplicateInFile} ${IMPORTS.duplicateEmailSuffix}`);
    if (entry.errors.length > 0 || !role) continue;
    seen.add(parsed.data.email);
    candidates.push({ row: entry, ...parsed.data, roleId: role.id, groupId: groupless ? null : (group?.id ?? null) });
  }

  const exists = (c: Candidate) => c.row.warnings.push(IMPORTS.exists(`Корисник ${asTyped(c.email)} ${IMPORTS.duplicateEmailSuffix}`));
  const registered = new Set<string>();
  for (const part of chunks(candidates.map((c) => c.email))) {
    const rows = await ctx.db
      .select({ email: sql<string>`lower(${users.email})` })
      .from(users)
      .where(
        sql`lower(${users.email}) in (${sql.join(
          part.map((e) => sql`${e}`),
          sql`, `,
        )})`,
      );
    for (const r of rows) registered.add(r.email);
  }
  const fresh = candidates.filter((c) => {
    if (!registered.has(c.email)) return true;
    exists(c);
    return false;
  });

  const created = await ctx.db.transaction(async (tx) => {
    const made: { id: string; email: string; ime: string; pismo: string }[] = [];
    for (const part of chunks(fresh)) {
      const rows = await tx
        .insert(users)
        .values(
          part.map((c) => ({
            ime: c.ime,
            prezime: c.prezime,
            email: c.email,
            emailPotvrdjen: true,
            status: 'aktivan',
            roleId: c.roleId,
            groupId: c.groupId,
            passwordHash: NO_PASSWORD,
          })),
        )
        .onConflictDoNothing()
        .returning({ id: users.id, email: users.email, ime: users.ime, pismo: users.pismo });
      made.push(...rows);
    }
    const madeEmails = new Set(made.map((m) => m.email));
    for (const c of fresh) {
      if (madeEmails.has(c.email)) c.row.success = true;
      else exists(c);
    }
    if (made.length > 0) {
      await writeLog(tx, {
        actor,
        ...req,
        message: `Korisnik ${asTyped(actor.email)} je uvezao ${made.length} korisnika iz fajla ${asTyped(sheet.originalName)}.`,
      });
    }
    return made;
  });
  // After the commit: each new account gets its link (kept in the outbox when no SMTP server is in use).
  // An importer's mails past 500 a day are held in the outbox for the Admin (platform/mail.ts).
  const mailCtx = { ...ctx, mailer: importMailer(ctx.mailer, actor.id) };
  for (const user of created) await sendPasswordSetup(mailCtx, user);
  return report.document();
}

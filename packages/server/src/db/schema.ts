import { sql } from 'drizzle-orm';
import { boolean, index, integer, json, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

const id = () => uuid('id').primaryKey().defaultRandom();
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

/** Roles: the four built-in ones (base_role = their own key) and extra ones created on /app/role. */
export const roles = pgTable('roles', {
  id: id(),
  imeRole: text('ime_role').notNull(),
  kratakNaziv: text('kratak_naziv').notNull(),
  baseRole: text('base_role').notNull(),
  builtin: boolean('builtin').notNull().default(false),
  createdAt: createdAt(),
});

export const groupTypes = pgTable(
  'group_types',
  {
    id: id(),
    naziv: text('naziv').notNull(),
    kratakNaziv: text('kratak_naziv').notNull(),
    code: text('code'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('group_types_code_uq').on(t.code), uniqueIndex('group_types_naziv_uq').on(sql`lower(${t.naziv})`)],
);

export const groups = pgTable(
  'groups',
  {
    id: id(),
    naziv: text('naziv').notNull(),
    kratakNaziv: text('kratak_naziv').notNull(),
    cirilica: text('cirilica').notNull().default(''),
    typeId: uuid('type_id').references(() => groupTypes.id, { onDelete: 'restrict' }),
    parentId: uuid('parent_id'),
    sveVideci: boolean('sve_videci').notNull().default(false),
    reserved: boolean('reserved').notNull().default(false),
    /** Folded text of the names (trasa_fold, see drizzle/0001_search.sql) for transliteration-aware search. */
    searchText: text('search_text').generatedAlwaysAs(sql`trasa_fold("naziv" || ' ' || "kratak_naziv" || ' ' || "cirilica")`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('groups_parent_idx').on(t.parentId),
    uniqueIndex('groups_naziv_uq').on(sql`lower(${t.naziv})`),
    index('groups_search_idx').using('gin', t.searchText.op('gin_trgm_ops')),
  ],
);

export const users = pgTable(
  'users',
  {
    id: id(),
    ime: text('ime').notNull(),
    prezime: text('prezime').notNull(),
    email: text('email').notNull(),
    emailPotvrdjen: boolean('email_potvrdjen').notNull().default(false),
    roleId: uuid('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'restrict' }),
    status: text('status').notNull().default('neaktivan'),
    groupId: uuid('group_id').references(() => groups.id, { onDelete: 'set null' }),
    passwordHash: text('password_hash').notNull(),
    tokenVersion: integer('token_version').notNull().default(0),
    tables: jsonb('tables').notNull().default(sql`'[]'::jsonb`),
    /** The script the web shows its texts in (issue 13 item 10): 'cyr' (Ћирилица) or 'lat' (Latinica). */
    pismo: text('pismo').notNull().default('cyr'),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    /** Folded name and e-mail (trasa_fold, see drizzle/0001_search.sql) for transliteration-aware search. */
    searchText: text('search_text').generatedAlwaysAs(sql`trasa_fold("ime" || ' ' || "prezime" || ' ' || "email")`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('users_email_uq').on(sql`lower(${t.email})`),
    index('users_group_idx').on(t.groupId),
    index('users_role_idx').on(t.roleId),
    // Lists are ordered by last name, then first name.
    index('users_name_idx').on(t.prezime, t.ime, t.id),
    index('users_search_idx').using('gin', t.searchText.op('gin_trgm_ops')),
  ],
);

/** Single-use codes (activation, password reset), stored as hashes. */
export const userCodes = pgTable(
  'user_codes',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose').notNull(),
    codeHash: text('code_hash').notNull(),
    /** What the code carries: the new address of an e-mail change. */
    payload: text('payload'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('user_codes_user_idx').on(t.userId, t.purpose)],
);

/** Tokens revoked before they expire (sign-out); rows are dropped once the token would have expired. */
export const revokedTokens = pgTable(
  'revoked_tokens',
  {
    jti: text('jti').primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('revoked_tokens_expires_idx').on(t.expiresAt)],
);

/** Failed sign-in counters per account and per IP (throttling). */
export const loginFailures = pgTable('login_failures', {
  key: text('key').primaryKey(),
  count: integer('count').notNull().default(0),
  windowStart: timestamp('window_start', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Changes applied once per user and Idempotency-Key (platform/idempotency.ts): `status` null while the
 * first request applies it, then its answer (status and JSON body) for the repeats; removed after 7 days.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: uuid('key').notNull(),
    /** Method and address of the first request: the key names that change only. */
    request: text('request').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    status: integer('status'),
    /** The answer's JSON as sent (json, not jsonb: its keys stay in their order). */
    answer: json('answer'),
  },
  (t) => [primaryKey({ name: 'idempotency_keys_pkey', columns: [t.userId, t.key] }), index('idempotency_keys_started_idx').on(t.startedAt)],
);

export const smtpServers = pgTable('smtp_servers', {
  id: id(),
  host: text('host').notNull(),
  port: integer('port').notNull(),
  email: text('email').notNull(),
  passwordEnc: text('password_enc').notNull(),
  inUse: boolean('in_use').notNull().default(false),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** Mail that was sent, or kept because no SMTP server is in use. */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: id(),
    to: text('to_address').notNull(),
    subject: text('subject').notNull(),
    text: text('body_text').notNull(),
    html: text('body_html'),
    status: text('status').notNull(),
    error: text('error'),
    /** Why the mail was sent: 'import', 'signup', 'reset', 'activation', 'email-change', 'digest', … */
    origin: text('origin'),
    /** Whose action sent it (an importer), for the per-person daily cap. */
    actorId: uuid('actor_id'),
    attempts: integer('attempts').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    index('mail_outbox_to_idx').on(t.to, t.createdAt),
    index('mail_outbox_actor_idx').on(t.actorId, t.createdAt),
    index('mail_outbox_status_idx').on(t.status),
  ],
);

export const auditLogs = pgTable(
  'audit_logs',
  {
    id: id(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    userLabel: text('user_label').notNull().default(''),
    ip: text('ip').notNull().default(''),
    message: text('message').notNull(),
    /**
     * Where the sentence's typed values (names, addresses) lie in `message`: [start, end, …] UTF-16
     * offsets; null on rows written before drizzle/0038 (shown as written).
     */
    typedSpans: integer('typed_spans').array(),
    url: text('url').notNull().default(''),
    groupId: uuid('group_id'),
    groupCirilica: text('group_cirilica').notNull().default(''),
    /** Folded text of what the log search matches (trasa_fold), with a trigram index. */
    searchText: text('search_text').generatedAlwaysAs(sql`trasa_fold("message" || ' ' || "user_label" || ' ' || "ip" || ' ' || "url")`),
    createdAt: createdAt(),
  },
  (t) => [
    // Newest first from the index alone; group_id rides along (INCLUDE, written in drizzle/0006 by hand).
    index('audit_logs_created_id_idx').on(t.createdAt, t.id),
    // A group's newest rows with their search_text (INCLUDE, drizzle/0031 by hand): a scope's search window.
    index('audit_logs_group_created_idx').on(t.groupId, t.createdAt, t.id),
    index('audit_logs_search_idx').using('gin', t.searchText.op('gin_trgm_ops')),
  ],
);

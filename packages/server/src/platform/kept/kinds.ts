import { isDeepStrictEqual } from 'node:util';
import { EXACT_COUNT_LIMIT } from '../paging.js';

/**
 * Every value the server keeps in memory, declared in one place (docs/ARCHITECTURE.md "Kept values"). Two
 * tables:
 *
 * - VERSIONS: the data versions — rows of report_cache_state, each moved once per transaction, at commit,
 *   by triggers that run trasa_list_changed('<name>') (drizzle/0020, 0039) — with the tables and the
 *   events whose changes move each one. versionTriggers.test.ts reads pg_trigger on a migrated database
 *   and fails when a declared table lacks its trigger, when a trigger moves a version for a table or event
 *   not declared here, or when a version is moved that no kind below declares (nor rows kept in
 *   PostgreSQL: `keptRows`).
 * - KINDS: what is kept, each kind under the versions it depends on (with the database's epoch,
 *   platform/epoch.ts), exact or approximate (an approximate kind says how far a kept value may be from a
 *   fresh one: TRASA_KEPT_VERIFY checks it against that), and its budget of bytes in one least recently
 *   used set per database (platform/kept/store.ts). TRASA_KEPT_OFF names kinds to keep nothing of.
 *
 * A new kind: add it here with its versions (a new version: a migration with its triggers and its row, and
 * its tables here), and use it through store.ts (`kept(kind)`), answers.ts (whole answers) or counts.ts
 * (counts compared in a page's own statement).
 */

/** A change of a table that moves a version: what a trigger fires on (pg_trigger.tgtype). */
export type TableEvent = 'insert' | 'update' | 'delete' | 'truncate';
const ROWS: readonly TableEvent[] = ['insert', 'update', 'delete'];
const ALL: readonly TableEvent[] = ['insert', 'update', 'delete', 'truncate'];

type VersionDecl = {
  /** What the version follows, and the migrations that define it. */
  about: string;
  /** Table → the events on it that move the version (a WHEN clause may narrow an update to some columns). */
  tables: Readonly<Record<string, readonly TableEvent[]>>;
  /** Rows kept in PostgreSQL under the version (not in the server's memory): the table and what rebuilds it. */
  keptRows?: string;
};

export const VERSIONS = {
  locations: {
    about:
      "The clusters' list rows (0020): every column of a cluster (its stored status too), its groups and contracts, those groups' names, types and tree, the contracts' names, numbers and dates.",
    tables: { clusters: ROWS, cluster_groups: ROWS, contract_clusters: ROWS, contracts: ROWS, groups: ROWS, group_types: ROWS },
  },
  groups: {
    about: 'The group tree (0020): the groups (their parents, flags, names, kept member counts) and their types.',
    tables: { groups: ROWS, group_types: ROWS },
  },
  visibility: {
    about: "Which clusters a group sees (0033): a cluster's responsible groups, a contract's clusters and a contract's groups.",
    tables: { cluster_groups: ROWS, contract_clusters: ROWS, contract_groups: ROWS },
  },
  a13: { about: 'The A13 confirmations (0020).', tables: { a13_confirmations: ROWS } },
  users: {
    about: "What the users' lists count and search (0029): a user added or deleted, or their liveness, group, role or search text.",
    tables: { users: ROWS },
  },
  comments: {
    about: "What the comments' search counts (0030): a comment added or deleted, its cluster, text or kept search copies.",
    tables: { activity_comments: ALL },
  },
  logs: {
    about: 'Log rows deleted or changed (0036); new rows move nothing (every audited request writes one).',
    tables: { audit_logs: ['update', 'delete', 'truncate'] },
  },
  ijo: {
    about:
      "What the IJO report's kept rows (ijo_report_rows) are built from (0018, 0039): the A7s, the names of clusters, groups, contracts and holders, the group types and every visibility link.",
    tables: {
      activities: ALL,
      clusters: ['update', 'truncate'],
      groups: ['update', 'delete', 'truncate'],
      contracts: ['update', 'delete', 'truncate'],
      contract_clusters: ALL,
      contract_groups: ALL,
      cluster_groups: ALL,
      group_types: ALL,
      ijo_holders: ALL,
    },
    keptRows: 'ijo_report_rows, rebuilt by features/reports/ijoCache.ts ensureIjoRows when the version passed `built`',
  },
  catalogue: {
    about: "The catalogue's codes, order and names (0039; the summary comparison lists them).",
    tables: { activity_catalogue: ALL },
  },
  snapshots: {
    about: "The report snapshots (0039): taken, replaced or cleared (a snapshot's rows are written and removed with it).",
    tables: { report_snapshots: ALL },
  },
} as const satisfies Record<string, VersionDecl>;

export type VersionName = keyof typeof VERSIONS;

/** How a kept value compares with one computed afresh (TRASA_KEPT_VERIFY). */
export type Comparison = {
  /** False: approximate by design; `tolerance` says how far apart the two may be. */
  exact: boolean;
  tolerance?: string;
  same(kept: unknown, fresh: unknown): boolean;
};

const exact: Comparison = { exact: true, same: isDeepStrictEqual };

/**
 * A list's total (platform/paging.ts countOf): counted exactly up to EXACT_COUNT_LIMIT, past it the
 * planner's estimate — equal up to the limit, both past it beyond.
 */
const total: Comparison = {
  exact: false,
  tolerance: `equal up to ${EXACT_COUNT_LIMIT.toLocaleString('en')} (counted); past it both past it (an estimate)`,
  same: (kept, fresh) => kept === fresh || (Number(kept) > EXACT_COUNT_LIMIT && Number(fresh) > EXACT_COUNT_LIMIT),
};

type KindDecl = {
  /** What is kept, keyed by what, and where. */
  about: string;
  /** The data versions it is kept under (with the epoch); none: keyed by time or by nothing (`lifetime`). */
  versions: readonly VersionName[];
  /** Besides the versions, or instead of them: how long a value is used. */
  lifetime?: string;
  compare: Comparison;
  /** The most bytes its values take per database (keys and values as `size` counts them). */
  bytes: number;
  /** The most values it keeps (besides the bytes). */
  entries?: number;
  /** The biggest value kept (a bigger one is used, not kept); a quarter of `bytes` unless given. */
  entryBytes?: number;
  /** A value's bytes (without its key); 64 unless given. */
  size?: (value: never) => number;
};

const MB = 1024 * 1024;
/** A count kept per search or scope (counts.ts): small values, many keys. */
const COUNTS = { bytes: 2 * MB, entries: 5_000 } as const;

export const KINDS = {
  // Whole answers (answers.ts): the JSON text and its brotli / gzip bytes once asked for.
  clusterList: {
    about: "The clusters' whole list (limit ≥ 1,000: the pickers), per scope, day and query (features/clusters/routes.ts).",
    versions: ['locations', 'visibility'],
    compare: exact,
    bytes: 32 * MB,
  },
  groupList: {
    about: "The groups' whole list (limit=50000) and the sees-everything choices, per scope (features/groups/routes.ts).",
    versions: ['groups'],
    compare: exact,
    bytes: 16 * MB,
  },
  a13List: {
    about: "The A13 screen's list of every visible location, per scope (features/inventory/routes.ts).",
    versions: ['locations', 'visibility', 'a13'],
    compare: exact,
    bytes: 16 * MB,
  },
  comparison: {
    about: 'The snapshot comparisons, per scope, type, dates and filters (features/reports/routes.ts).',
    versions: ['snapshots', 'visibility', 'catalogue'],
    compare: exact,
    bytes: 32 * MB,
    entryBytes: 16 * MB,
  },
  // Values (store.ts `kept(kind)`), under versions read with the user (load_active_user).
  clusterScope: {
    about:
      "A user's cluster scope with its visible clusters' ids, per group and kind of scope (features/clusters/policy.ts clusterScopeOf).",
    versions: ['groups', 'visibility'],
    compare: exact,
    bytes: 32 * MB,
    entries: 5_000,
    size: (scope: { all: boolean; clusterIds?: string }) => 100 + (scope.clusterIds ? scope.clusterIds.length : 0),
  },
  // Counts compared in the page's own statement (counts.ts).
  userCount: {
    about: "A users search's count, per scope and terms (features/users/listing.ts, features/search).",
    versions: ['users'],
    compare: total,
    ...COUNTS,
  },
  commentCount: {
    about: "A comments search's count over every cluster, per terms (features/commentsList/service.ts).",
    versions: ['comments'],
    compare: total,
    ...COUNTS,
  },
  commentCountInScope: {
    about: "A comments search's count in a limited scope, per scope and terms (features/commentsList/service.ts).",
    versions: ['comments', 'locations', 'visibility'],
    compare: total,
    ...COUNTS,
  },
  commentScopeTotal: {
    about: "A limited scope's comments total (the sum of its clusters' kept numbers), per scope (features/clusters/keptCounts.ts).",
    versions: ['comments', 'visibility'],
    compare: exact,
    ...COUNTS,
  },
  // The log: written by every audited request, so kept by time and checked against a tolerance.
  logPositions: {
    about:
      "The positions of a frequent text's matches older than a cutoff and their count, per scope and terms (features/logs/search/keptPositions.ts).",
    versions: ['logs'],
    lifetime: '60 s (MATCH_INDEX.keptMs); the matches newer than the cutoff are counted on every request',
    compare: {
      exact: false,
      tolerance:
        'read again at the kept cutoff: the same positions and count; a row older than the cutoff committed after they were read (a transaction longer than MATCH_INDEX.marginMs) is missed until they are read again',
      same: (kept, fresh) => {
        const pick = (v: unknown) => {
          const { marks, older, every, cutoff } = v as { marks: unknown; older: unknown; every: unknown; cutoff: unknown };
          return { marks, older, every, cutoff };
        };
        return isDeepStrictEqual(pick(kept), pick(fresh));
      },
    },
    bytes: 16 * MB,
    entries: 200,
    size: (index: { marks: unknown[] }) => 200 + 100 * index.marks.length,
  },
} as const satisfies Record<string, KindDecl>;

export type KindName = keyof typeof KINDS;
export const KIND_NAMES = Object.keys(KINDS) as KindName[];

/** The kinds kept as whole answers (answers.ts). */
export type AnswerKind = 'clusterList' | 'groupList' | 'a13List' | 'comparison';
/** The kinds kept as counts compared in a statement (counts.ts). */
export type CountKind = 'userCount' | 'commentCount' | 'commentCountInScope' | 'commentScopeTotal';

/** A kind's declaration, typed as the store reads it. */
export const kindOf = (kind: KindName): KindDecl => KINDS[kind];

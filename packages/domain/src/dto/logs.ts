/** Answer shapes of the audit log (spec 3 §3 "Log", §7 "Logs"; docs/api/logs-comments-ijo.md). */

export type LogDto = {
  _id: string;
  /** Who acted, as written then: 'Ime Prezime (email)', or the e-mail typed at a failed sign-in. */
  user: string;
  ip: string;
  /** A Serbian sentence naming the action and the object. */
  message: string;
  url: string;
  /** The actor's group in Cyrillic at the time ('' for none: an Admin, a guest, a failed sign-in). */
  group: string;
  createdAt: string;
};

/**
 * GET /api/log, GET /api/search/log. `totalLogs` is exact up to 10,000; past that it is the database's
 * estimate and `totalExact` is false (counting a million rows on every page costs more than the page).
 */
export type LogsPage = { logs: LogDto[]; totalLogs: number; totalExact: boolean };

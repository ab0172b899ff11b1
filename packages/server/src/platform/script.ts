import { isScript, type Script, toScript } from '@trasa/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * The script the server answers a request in (docs/decisions.md "One script at a time"): the header the
 * web sends on every call, else the signed-in user's choice (users.pismo), else Cyrillic.
 */
export const SCRIPT_HEADER = 'x-trasa-pismo';

export function scriptOf(request: FastifyRequest): Script {
  const sent = request.headers[SCRIPT_HEADER];
  const value = typeof sent === 'string' ? sent.trim().toLowerCase() : undefined;
  if (isScript(value)) return value;
  return request.actor?.row.user.pismo === 'lat' ? 'lat' : 'cyr';
}

/** A user's stored choice as a script ('cyr' unless 'lat'). */
export const scriptOfUser = (pismo: string | null | undefined): Script => (pismo === 'lat' ? 'lat' : 'cyr');

type Refused = { razlog?: unknown };
type ReportRow = { errors?: unknown; warnings?: unknown };

const texts = (value: unknown, script: Script): unknown =>
  Array.isArray(value) ? value.map((t) => (typeof t === 'string' ? toScript(t, script) : t)) : value;

/**
 * An answer's composed texts in `script`: `message`, the field errors (`errors`), the refusals of an
 * upload (`odbijeni[].razlog`) and an import report's row messages (`document.importReport[].errors`,
 * `warnings`). Everything else is data and goes as stored. A new object: the answer given is not changed.
 */
export function answerInScript(payload: unknown, script: Script): unknown {
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) return payload;
  const answer = payload as Record<string, unknown>;
  const { message, errors, odbijeni, document } = answer;
  const report = (document as { importReport?: unknown } | null | undefined)?.importReport;
  const composed =
    typeof message === 'string' ||
    (errors !== null && typeof errors === 'object' && !Array.isArray(errors)) ||
    Array.isArray(odbijeni) ||
    Array.isArray(report);
  if (!composed) return payload;
  const out: Record<string, unknown> = { ...answer };
  if (typeof message === 'string') out.message = toScript(message, script);
  if (errors !== null && typeof errors === 'object' && !Array.isArray(errors)) {
    out.errors = Object.fromEntries(
      Object.entries(errors as Record<string, unknown>).map(([field, text]) => [
        field,
        typeof text === 'string' ? toScript(text, script) : text,
      ]),
    );
  }
  if (Array.isArray(odbijeni)) {
    out.odbijeni = odbijeni.map((r: Refused) => (typeof r?.razlog === 'string' ? { ...r, razlog: toScript(r.razlog, script) } : r));
  }
  if (Array.isArray(report)) {
    out.document = {
      ...(document as object),
      importReport: report.map((row: ReportRow) => ({ ...row, errors: texts(row.errors, script), warnings: texts(row.warnings, script) })),
    };
  }
  return out;
}

/**
 * Every object answer (success and error alike: the error handler's answers pass here too) leaves with
 * its composed texts in the request's script. Answers sent as text (the lists built by PostgreSQL, kept
 * answers) are data and are not looked at.
 */
export function registerScript(app: FastifyInstance): void {
  app.addHook('preSerialization', (request, _reply, payload, done) => {
    done(null, answerInScript(payload, scriptOf(request)));
  });
}

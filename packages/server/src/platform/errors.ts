import type { Duplex } from 'node:stream';
import { COMMON, toScript } from '@trasa/domain';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { pgCode } from './pgErrors.js';

/** An error a user or client caused; its message is shown to them (Serbian, as the spec words it). */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly errors?: Record<string, string>,
  ) {
    super(message);
  }
}

/** Validates a value with a schema chosen at run time, failing like the route schemas do. */
export function parseOrBadRequest<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const field = issue.path.join('.') || '_';
    if (!(field in errors)) errors[field] = issue.message;
  }
  throw new AppError(400, result.error.issues[0]?.message ?? COMMON.badRequest, errors);
}

export const badRequest = (message: string, errors?: Record<string, string>) => new AppError(400, message, errors);
export const unauthorized = (message: string = COMMON.unauthenticated) => new AppError(401, message);
export const forbidden = (message: string = COMMON.forbidden) => new AppError(403, message);
export const notFound = (message: string = COMMON.notFound) => new AppError(404, message);
export const conflict = (message: string, errors?: Record<string, string>) => new AppError(409, message, errors);

/**
 * One error handler (its answers leave in the request's script: platform/script.ts): validation failures give the first message of the schema (the spec's text) and a
 * field → message map; client errors keep their status; anything else is logged and answered 500
 * without detail.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError | Error, request, reply) => {
    if (error instanceof AppError) {
      return reply.status(error.statusCode).send({ message: error.message, ...(error.errors && { errors: error.errors }) });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors: Record<string, string> = {};
      for (const v of error.validation) {
        const field = v.instancePath.replace(/^\//, '').replace(/\//g, '.') || '_';
        if (!(field in errors)) errors[field] = v.message ?? COMMON.badRequest;
      }
      const first = error.validation[0]?.message ?? COMMON.badRequest;
      return reply.status(400).send({ message: first, errors });
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error }, 'response did not match its schema');
      return reply.status(500).send({ message: COMMON.serverError });
    }
    const status = (error as FastifyError).statusCode;
    if (status && status >= 400 && status < 500) {
      const message =
        status === 413
          ? COMMON.tooLarge
          : status === 429
            ? COMMON.tooMany
            : status === 404
              ? COMMON.routeNotFound
              : status === 401
                ? COMMON.unauthenticated
                : COMMON.badRequest;
      return reply.status(status).send({ message });
    }
    // A value PostgreSQL can't take (class 22, data exception: out of range, malformed, untranslatable)
    // came from the request; a check should have caught it first, so it is logged to be added.
    if (pgCode(error)?.startsWith('22')) {
      request.log.warn({ err: error }, 'data exception from a request value');
      return reply.status(400).send({ message: COMMON.badRequest });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ message: COMMON.serverError });
  });
}

/**
 * Answers a request Node's HTTP parser refused before Fastify saw it (headers or URL over 16 KB, a
 * malformed request line, a client that took too long) in JSON and Serbian like every other error.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, label, message] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', COMMON.tooLarge]
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', COMMON.badRequest]
        : [400, 'Bad Request', COMMON.badRequest];
  // No header was read: the default script (platform/script.ts).
  const body = JSON.stringify({ message: toScript(message, 'cyr') });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${label}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

import pino, { type DestinationStream, type Logger } from 'pino';

/** Query parameters whose values are secrets (single-use codes, tokens): never written to a log. */
const SECRET_PARAMS = /([?&](?:code|token|resetCode|access_token)=)[^&#]*/gi;

/** The URL with the values of secret query parameters replaced ('…?email=a%40b.rs&code=[redacted]'). */
export function redactUrl(url: string): string {
  return url.replace(SECRET_PARAMS, '$1[redacted]');
}

type LoggedRequest = {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  headers?: Record<string, unknown>;
  socket?: { remotePort?: number };
};

/**
 * The server's logger. Fastify logs each request with this `req` serializer (it takes the logger's own
 * serializers over its defaults): the same fields as Fastify's, with the URL's codes redacted, so a live
 * activation, reset or e-mail confirmation link never reaches the log; log messages are redacted alike.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const serializers = {
    req: (req: LoggedRequest) => ({
      method: req.method,
      url: typeof req.url === 'string' ? redactUrl(req.url) : req.url,
      host: req.host,
      remoteAddress: req.ip,
      remotePort: req.socket?.remotePort,
    }),
  };
  // Messages too ('Route GET:/…?code=… not found' and the like).
  const hooks = {
    logMethod(this: Logger, args: Parameters<Logger['info']>, method: (...a: unknown[]) => void) {
      method.apply(
        this,
        args.map((a) => (typeof a === 'string' ? redactUrl(a) : a)),
      );
    },
  };
  const options = { level, serializers, hooks };
  return destination ? pino(options, destination) : pino(options);
}

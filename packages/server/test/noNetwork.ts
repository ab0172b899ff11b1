import net from 'node:net';

/**
 * Any outbound connection to a host other than the local one fails the test: tests talk only to the
 * PostgreSQL and SMTP servers they start themselves.
 */
// The test files of a worker share their modules (vitest `isolate: false`) and this file runs before each of
// them: the guard is installed once, not wrapped around itself once per file.
const installed = Symbol.for('trasa.noNetwork');
const proto = net.Socket.prototype as net.Socket & { [installed]?: true };
const original = net.Socket.prototype.connect;
const local = /^(127\.|::1$|localhost$|0\.0\.0\.0$)/;
if (!proto[installed]) {
  proto[installed] = true;
  net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
    const first = args[0] as { host?: string; path?: string } | number | string | undefined;
    const host = typeof first === 'object' && first !== null ? first.host : typeof args[1] === 'string' ? args[1] : undefined;
    const isPath = typeof first === 'object' && first !== null && !!first.path;
    if (!isPath && host && !local.test(host)) throw new Error(`unexpected outbound connection to ${host} in a test`);
    return (original as (...a: unknown[]) => net.Socket).apply(this, args);
  } as typeof net.Socket.prototype.connect;
}

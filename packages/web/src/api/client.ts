import { getScript } from '../script';
import { dropOpeningAnswers, takeOpeningAnswer } from './opening';
import { clearToken, getToken } from './token';

/**
 * The script the user reads (Ћирилица 'cyr' or Latinica 'lat'), sent with every call: the server words its
 * answers, messages and files in it (docs/decisions.md "One script at a time").
 */
export const SCRIPT_HEADER = 'X-Trasa-Pismo';

/** A failed call: `serverMessage` is the server's `message` when it sent one; status 0 is a network failure. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly serverMessage: string | undefined,
    readonly errors: Record<string, string> | undefined,
  ) {
    super(serverMessage ?? (status === 0 ? 'Greška mreže' : `HTTP ${status}`));
    this.name = 'ApiError';
  }
}

export type QueryValue = string | number | boolean | null | undefined;

export type RequestOptions = {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** JSON, or a FormData sent as multipart. */
  body?: unknown;
  query?: Record<string, QueryValue>;
  signal?: AbortSignal;
  /** false for the public calls (login, sign-up, password reset): no bearer token is sent. */
  auth?: boolean;
  /** More headers (a queued change's Idempotency-Key). */
  headers?: Record<string, string>;
};

/** `keptAt`: the answer came from the device's copy (the network failed), saved then (ms since the epoch). */
export type ApiResponse<T> = { data: T; headers: Headers; keptAt?: number };

/**
 * What the device's copy adds to the calls (offline/deviceCopy.ts; docs/decisions.md "Offline"): the
 * network's state from each call's outcome; the signed-in user's GET answers of the kinds it keeps, kept as
 * they come and answered from the device when the network fails; the device's side of a refused token.
 * Handed in by the application (FullApp, and main.tsx for a visit that opens on /app), so the login page's
 * JavaScript carries none of it.
 */
export type CallObserver = {
  keeps(path: string): boolean;
  answered(): void;
  failed(): void;
  keep(token: string, pathWithQuery: string, data: unknown, stillSignedIn: () => boolean): void;
  read(token: string, pathWithQuery: string): Promise<{ data: unknown; savedAt: number } | null>;
  refused(token: string): void;
};

let observer: CallObserver | null = null;
let loadObserver: (() => Promise<CallObserver>) | null = null;

/**
 * Installs the device's copy; or, as a loader, names where it comes from: it is then loaded only if a call
 * fails before it was installed (the entry's early profile call on a visit that opens on /app offline).
 */
export function observeCalls(next: CallObserver | (() => Promise<CallObserver>)): void {
  if (typeof next === 'function') loadObserver = next;
  else observer = next;
}

function observe(use: (o: CallObserver) => void): void {
  if (observer) use(observer);
}

/** The device's copy for a call that got no answer, loaded now if only its loader was given. */
async function observerForFailure(): Promise<CallObserver | null> {
  if (!observer && loadObserver) observer = await loadObserver().catch(() => null);
  return observer;
}

/** The token was refused (401): it goes, and the device's copy follows (the queue stays for the same user). */
function tokenRefused(token: string): void {
  clearToken();
  observe((o) => o.refused(token));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function errorFromBody(status: number, body: unknown): ApiError {
  if (!isRecord(body)) return new ApiError(status, undefined, undefined);
  const message = typeof body.message === 'string' && body.message.trim() ? body.message : undefined;
  let errors: Record<string, string> | undefined;
  if (isRecord(body.errors)) {
    errors = {};
    for (const [field, text] of Object.entries(body.errors)) if (typeof text === 'string') errors[field] = text;
  }
  return new ApiError(status, message, errors);
}

/** The path with its query: the device keeps an answer under it ('/activity/notifications?page=1'). */
function pathWithQuery(path: string, query: RequestOptions['query']): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) params.append(name, String(value));
  }
  const qs = params.toString();
  return `${path}${qs ? `?${qs}` : ''}`;
}

function url(path: string, query: RequestOptions['query']): string {
  return `/api${pathWithQuery(path, query)}`;
}

/** Calls /api{path} with JSON and the bearer token from local storage; throws ApiError on failure. */
export async function request<T>(path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
  const headers = new Headers({ ...options.headers, Accept: 'application/json', [SCRIPT_HEADER]: getScript() });
  const token = options.auth === false ? null : getToken();
  if (token) headers.set('Authorization', `Bearer ${token}`);
  let body: string | FormData | undefined;
  if (options.body instanceof FormData) {
    // multipart: the browser sets the Content-Type with its boundary.
    body = options.body;
  } else if (options.body !== undefined) {
    headers.set('Content-Type', 'application/json');
    body = JSON.stringify(options.body);
  }
  const isGet = (options.method ?? 'GET') === 'GET';
  let response: Response;
  const address = url(path, options.query);
  const method = options.method ?? 'GET';
  if (method !== 'GET') dropOpeningAnswers();
  try {
    response = await ((method === 'GET' && takeOpeningAnswer(address, token)) ||
      fetch(address, { method, headers, body, credentials: 'include', signal: options.signal }));
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    // No answer at all: the device's copy, when it keeps one for this user and path.
    const device = await observerForFailure();
    device?.failed();
    const copy = token && isGet && device?.keeps(path) ? await device.read(token, pathWithQuery(path, options.query)) : null;
    if (copy) return { data: copy.data as T, headers: new Headers(), keptAt: copy.savedAt };
    throw new ApiError(0, undefined, undefined);
  }
  observe((o) => o.answered());
  const text = await response.text().catch(() => '');
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  // A rejected token (expired, revoked by a password change, account deleted) ends the session:
  // the route guard sees the token gone and returns to the login page.
  if (response.status === 401 && token && getToken() === token) tokenRefused(token);
  if (!response.ok) throw errorFromBody(response.status, parsed);
  if (token && isGet && getToken() === token) {
    observe((o) => {
      if (o.keeps(path)) o.keep(token, pathWithQuery(path, options.query), parsed, () => getToken() === token);
    });
  }
  return { data: parsed as T, headers: response.headers };
}

export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  return (await request<T>(path, options)).data;
}

/**
 * Sends a multipart form through XMLHttpRequest, which reports upload progress (fetch does not):
 * `onProgress` gets 0–100. Same token, errors and 401 handling as `request`.
 */
export function sendForm<T>(
  path: string,
  form: FormData,
  options: {
    method?: 'POST' | 'PATCH' | 'PUT';
    onProgress?: (percent: number) => void;
    signal?: AbortSignal;
    headers?: Record<string, string>;
  } = {},
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const token = getToken();
    xhr.open(options.method ?? 'POST', url(path, undefined));
    for (const [name, value] of Object.entries(options.headers ?? {})) xhr.setRequestHeader(name, value);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader(SCRIPT_HEADER, getScript());
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.withCredentials = true;
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && options.onProgress) options.onProgress(Math.round((event.loaded / event.total) * 100));
    };
    xhr.onload = () => {
      observe((o) => o.answered());
      let parsed: unknown;
      try {
        parsed = xhr.responseText ? JSON.parse(xhr.responseText) : undefined;
      } catch {
        parsed = undefined;
      }
      if (xhr.status === 401 && token && getToken() === token) tokenRefused(token);
      if (xhr.status < 200 || xhr.status >= 300) reject(errorFromBody(xhr.status, parsed));
      else resolve(parsed as T);
    };
    xhr.onerror = () => {
      observe((o) => o.failed());
      reject(new ApiError(0, undefined, undefined));
    };
    xhr.onabort = () => reject(new DOMException('Aborted', 'AbortError'));
    options.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}

/** The file name of a Content-Disposition header: RFC 5987 `filename*` first, then `filename`. */
export function fileNameOf(header: string | null): string | null {
  if (!header) return null;
  const extended = header.match(/filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i);
  if (extended?.[2]) {
    try {
      return decodeURIComponent(extended[2].trim().replace(/^"|"$/g, ''));
    } catch {
      // A malformed escape: fall back to the plain name.
    }
  }
  const plain = header.match(/filename\s*=\s*("([^"]*)"|[^;]+)/i);
  return (plain?.[2] ?? plain?.[1])?.trim() || null;
}

/** Fetches /api{path} as a blob (file downloads) with the bearer token; throws ApiError on failure. */
export async function download(path: string, signal?: AbortSignal): Promise<{ blob: Blob; fileName: string | null }> {
  const headers = new Headers({ [SCRIPT_HEADER]: getScript() });
  const token = getToken();
  if (token) headers.set('Authorization', `Bearer ${token}`);
  let response: Response;
  try {
    response = await fetch(url(path, undefined), { headers, credentials: 'include', signal });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    observe((o) => o.failed());
    throw new ApiError(0, undefined, undefined);
  }
  observe((o) => o.answered());
  if (response.status === 401 && token && getToken() === token) tokenRefused(token);
  if (!response.ok) {
    const text = await response.text().catch(() => '');
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    throw errorFromBody(response.status, parsed);
  }
  return { blob: await response.blob(), fileName: fileNameOf(response.headers.get('content-disposition')) };
}

/** Hands a downloaded blob to the browser as a file. */
export function saveBlob(blob: Blob, fileName: string): void {
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 1000);
}

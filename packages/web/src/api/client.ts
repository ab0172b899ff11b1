import { clearToken, getToken } from './token';

/** A failed call: `serverMessage` is the server's `message` when it sent one; status 0 is a network failure. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly serverMessage: string | undefined,
    readonly errors: Record<string, string> | undefined,
  ) {
    super(serverMessage ?? (status === 0 ? 'Network error' : `HTTP ${status}`));
    this.name = 'ApiError';
  }
}

export type QueryValue = string | number | boolean | null | undefined;

export type RequestOptions = {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  body?: unknown;
  query?: Record<string, QueryValue>;
  signal?: AbortSignal;
  /** false for the public calls (login, sign-up, password reset): no bearer token is sent. */
  auth?: boolean;
};

export type ApiResponse<T> = { data: T; headers: Headers };

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

function url(path: string, query: RequestOptions['query']): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) params.append(name, String(value));
  }
  const qs = params.toString();
  return `/api${path}${qs ? `?${qs}` : ''}`;
}

/** Calls /api{path} with JSON and the bearer token from local storage; throws ApiError on failure. */
export async function request<T>(path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
  const headers = new Headers({ Accept: 'application/json' });
  const token = options.auth === false ? null : getToken();
  if (token) headers.set('Authorization', `Bearer ${token}`);
  let body: string | undefined;
  if (options.body !== undefined) {
    headers.set('Content-Type', 'application/json');
    body = JSON.stringify(options.body);
  }
  let response: Response;
  try {
    response = await fetch(url(path, options.query), {
      method: options.method ?? 'GET',
      headers,
      body,
      credentials: 'include',
      signal: options.signal,
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(0, undefined, undefined);
  }
  const text = await response.text().catch(() => '');
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  // A rejected token (expired, revoked by a password change, account deleted) ends the session:
  // the route guard sees the token gone and returns to the login page.
  if (response.status === 401 && token && getToken() === token) clearToken();
  if (!response.ok) throw errorFromBody(response.status, parsed);
  return { data: parsed as T, headers: response.headers };
}

export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  return (await request<T>(path, options)).data;
}

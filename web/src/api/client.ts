/**
 * The dashboard's only way to the server: the public API, typed by the generated `schema.d.ts` (from the
 * server's TypeBox schemas). The access token lives in memory only; the refresh token is the server's
 * HTTP-only cookie. A 401 is answered by one refresh through the cookie and one retry of the request.
 */
import createClient from 'openapi-fetch';
import type { paths } from './schema';

export type { paths };

let accessToken: string | null = null;
const listeners = new Set<(token: string | null) => void>();

export function getAccessToken(): string | null {
  return accessToken;
}

export function setAccessToken(token: string | null): void {
  accessToken = token;
  for (const l of listeners) l(token);
}

/** Called whenever the access token changes (signed in, refreshed, signed out). */
export function onAccessToken(listener: (token: string | null) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

let refreshing: Promise<string | null> | null = null;

/**
 * The refresh request, one at a time across every tab of this browser. The refresh cookie is rotated on
 * each use and an already-rotated one revokes the whole sign-in (reuse detection): two tabs refreshing at
 * once would send the same cookie twice. Under the Web Lock the second tab's request leaves after the first
 * has stored the new cookie, and carries that one.
 */
function postRefresh(): Promise<Response> {
  const send = () => fetch('/api/v1/auth/refresh', { method: 'POST', credentials: 'same-origin' });
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  // The lock is held until the answer (and its Set-Cookie) has arrived.
  return locks ? (locks.request('fleet-hos-session-refresh', send) as unknown as Promise<Response>) : send();
}

/** A new access token from the refresh cookie (one request however many callers ask at once), or null. */
export function refreshAccessToken(): Promise<string | null> {
  refreshing ??= postRefresh()
    .then(async (res) => (res.ok ? ((await res.json()) as { accessToken: string }).accessToken : null))
    .catch(() => null)
    .then((token) => {
      setAccessToken(token);
      return token;
    })
    .finally(() => {
      refreshing = null;
    });
  return refreshing;
}

/** Called when a refresh fails: the session is over (the session provider shows the sign-in page). */
let onSessionLost: () => void = () => undefined;
export function setSessionLostHandler(handler: () => void): void {
  onSessionLost = handler;
}

async function authFetch(request: Request): Promise<Response> {
  const retry = request.clone();
  const send = (req: Request, token: string | null) => {
    if (token) req.headers.set('Authorization', `Bearer ${token}`);
    return fetch(req);
  };
  const res = await send(request, accessToken);
  if (res.status !== 401 || request.url.includes('/api/v1/auth/')) return res;
  const token = await refreshAccessToken();
  if (!token) {
    onSessionLost();
    return res;
  }
  return send(retry, token);
}

export const api = createClient<paths>({ baseUrl: '', fetch: authFetch, credentials: 'same-origin' });

/** The spec's error body. */
export interface ErrorBody {
  statusCode?: number;
  error?: string;
  message?: string;
  /** Field problems (validation), or the route a refusal is about (routeId). */
  details?: Array<{ field?: string; message?: string; candidates?: string[]; routeId?: string }>;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
  ) {
    super(body.message ?? `Request failed (${status})`);
  }
}

/** The data of an openapi-fetch result, or an ApiError with the server's message. */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (error !== undefined || !response.ok) throw new ApiError(response.status, (error ?? {}) as ErrorBody);
  return data as T;
}

type Json<R> = R extends { content: { 'application/json': infer J } } ? J : never;
type Method = 'get' | 'post' | 'put' | 'delete';

/** The JSON body of a successful (200 or 201) response: `Ok<'/api/v1/drivers/{driverId}', 'get'>`. */
export type Ok<P extends keyof paths, M extends Method = 'get'> = paths[P][M] extends { responses: infer R }
  ? R extends { 200: infer A }
    ? Json<A>
    : R extends { 201: infer B }
      ? Json<B>
      : never
  : never;

/** The JSON request body of an operation. */
export type Body<P extends keyof paths, M extends Method = 'post'> = paths[P][M] extends { requestBody?: infer B } ? Json<NonNullable<B>> : never;

/** One element of a collection response (`data` array). */
export type Item<P extends keyof paths> = Ok<P> extends { data: Array<infer E> } ? E : never;

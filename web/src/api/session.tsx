/**
 * Who is signed in. On load the session is restored from the refresh cookie (no token is ever stored
 * by the page); a tenant user's profile comes from GET /auth/me, a platform administrator's from the
 * token's claims (administrators act only through the admin endpoints).
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { ApiError, api, refreshAccessToken, setAccessToken, setSessionLostHandler, unwrap, type Ok } from './client';

export type Me = Ok<'/api/v1/auth/me'>;

export type Viewer =
  | { kind: 'admin'; userId: string; email: string }
  | { kind: 'user'; me: Me };

export type SessionState =
  | { status: 'loading' }
  | { status: 'anonymous'; notice?: string }
  | { status: 'signed-in'; viewer: Viewer };

interface SessionApi {
  state: SessionState;
  login(email: string, password: string): Promise<Viewer>;
  logout(): Promise<void>;
  /** Re-reads the profile (after the tenant was approved, a role changed, …). */
  reload(): Promise<void>;
}

const SessionContext = createContext<SessionApi | null>(null);

function claimsOf(token: string): { sub?: string; role?: string; tid?: string } {
  try {
    const part = token.split('.')[1] ?? '';
    return JSON.parse(atob(part.replace(/-/g, '+').replace(/_/g, '/'))) as { sub?: string; role?: string; tid?: string };
  } catch {
    return {};
  }
}

async function viewerFor(token: string, email = ''): Promise<Viewer> {
  const claims = claimsOf(token);
  if (claims.role === 'SUPER_ADMIN') return { kind: 'admin', userId: claims.sub ?? '', email };
  return { kind: 'user', me: await unwrap(api.GET('/api/v1/auth/me')) };
}

/** The server's `fleet_session` cookie: this browser holds a refresh cookie (it may have expired since). */
function hasSessionHint(): boolean {
  return typeof document !== 'undefined' && /(?:^|;\s*)fleet_session=1(?:;|$)/.test(document.cookie);
}

function forgetSessionHint(): void {
  if (typeof document !== 'undefined') document.cookie = 'fleet_session=; Max-Age=0; path=/; SameSite=Strict';
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<SessionState>({ status: 'loading' });

  useEffect(() => {
    setSessionLostHandler(() => setState({ status: 'anonymous', notice: 'Your session ended. Please sign in again.' }));
    let live = true;
    void (async () => {
      // Only a browser that signed in holds the refresh cookie (the server's readable hint says so): a first
      // visit goes straight to the sign-in page, without a refresh answered 401.
      const token = hasSessionHint() ? await refreshAccessToken() : null;
      if (!token) forgetSessionHint();
      if (!live) return;
      if (!token) return setState({ status: 'anonymous' });
      try {
        const viewer = await viewerFor(token, sessionStorage.getItem('fleet.adminEmail') ?? '');
        if (live) setState({ status: 'signed-in', viewer });
      } catch {
        if (live) setState({ status: 'anonymous' });
      }
    })();
    return () => {
      live = false;
    };
  }, []);

  const login = useCallback(async (email: string, password: string) => {
    const session = await unwrap(api.POST('/api/v1/auth/login', { body: { email, password } }));
    setAccessToken(session.accessToken);
    const viewer = await viewerFor(session.accessToken, email);
    if (viewer.kind === 'admin') sessionStorage.setItem('fleet.adminEmail', email);
    setState({ status: 'signed-in', viewer });
    return viewer;
  }, []);

  const logout = useCallback(async () => {
    await api.POST('/api/v1/auth/logout').catch(() => undefined);
    setAccessToken(null);
    sessionStorage.removeItem('fleet.adminEmail');
    setState({ status: 'anonymous', notice: 'You are signed out.' });
  }, []);

  const reload = useCallback(async () => {
    const token = await refreshAccessToken();
    if (!token) return setState({ status: 'anonymous' });
    try {
      setState({ status: 'signed-in', viewer: await viewerFor(token, sessionStorage.getItem('fleet.adminEmail') ?? '') });
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) setState({ status: 'anonymous' });
      else throw err;
    }
  }, []);

  const value = useMemo(() => ({ state, login, logout, reload }), [state, login, logout, reload]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionApi {
  const s = useContext(SessionContext);
  if (!s) throw new Error('useSession outside SessionProvider');
  return s;
}

/** The signed-in tenant user (pages behind the tenant layout only). */
export function useMe(): Me {
  const { state } = useSession();
  if (state.status !== 'signed-in' || state.viewer.kind !== 'user') throw new Error('useMe without a signed-in tenant user');
  return state.viewer.me;
}

const ROLE_RANK: Record<string, number> = { DRIVER: 0, VIEWER: 1, DISPATCHER: 2, ADMIN: 3, OWNER: 4 };

/** Whether the signed-in user's role is at least `role` (OWNER > ADMIN > DISPATCHER > VIEWER > DRIVER). */
export function useRoleAtLeast(role: 'VIEWER' | 'DISPATCHER' | 'ADMIN' | 'OWNER'): boolean {
  const me = useMe();
  return (ROLE_RANK[me.role] ?? -1) >= (ROLE_RANK[role] ?? 99);
}

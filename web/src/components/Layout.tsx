/** The frame of every signed-in page: skip link, header with navigation, live status and sign-out. */
import { label } from '../lib/glossary';
import type { ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { disconnectRealtime, useRealtimeConnected } from '../api/realtime';
import { useSession } from '../api/session';
import { AlertBadge } from './AlertBadge';

const DISPATCH_NAV: Array<[string, string]> = [
  ['/', 'Overview'],
  ['/routes', 'Routes'],
  ['/alerts', 'Alerts'],
  ['/drivers', 'Drivers'],
  ['/vehicles', 'Vehicles'],
  ['/loads', 'Loads'],
  ['/locations', 'Locations'],
  ['/compliance', 'Compliance'],
  ['/settings', 'Settings'],
];

/** Pages an entry of the navigation covers beyond its own address (Compliance: the unassigned driving too). */
const NAV_GROUPS: Readonly<Record<string, readonly string[]>> = { '/compliance': ['/unassigned-driving'] };

function isCurrent(location: string, href: string): boolean {
  const under = (path: string) => location === path || location.startsWith(`${path}/`);
  return href === '/' ? location === '/' : under(href) || (NAV_GROUPS[href] ?? []).some(under);
}

function LiveDot() {
  const connected = useRealtimeConnected();
  return (
    <span className={`live ${connected ? 'live-on' : 'live-off'}`} role="status" aria-live="polite" title={connected ? 'Live updates connected' : 'Live updates reconnecting'}>
      {connected ? 'Live' : 'Offline'}
    </span>
  );
}

export function Layout({ variant, children }: { variant: 'dispatcher' | 'driver' | 'admin'; children: ReactNode }) {
  const { state, logout } = useSession();
  const [location] = useLocation();
  const who =
    state.status !== 'signed-in' ? '' : state.viewer.kind === 'admin' ? `Platform admin ${state.viewer.email}` : `${state.viewer.me.firstName} ${state.viewer.me.lastName} · ${label('role', state.viewer.me.role)}`;
  const nav = variant === 'dispatcher' ? DISPATCH_NAV : [];
  return (
    <div className={`shell shell-${variant}`}>
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <header className="topbar">
        <Link href="/" className="brand">
          Fleet HOS
        </Link>
        {nav.length > 0 && (
          <nav aria-label="Main">
            <ul>
              {nav.map(([href, label]) => (
                <li key={href}>
                  <Link href={href} aria-current={isCurrent(location, href) ? 'page' : undefined}>
                    {label}
                    {href === '/alerts' && <AlertBadge />}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        )}
        <div className="topbar-end">
          {variant !== 'admin' && <LiveDot />}
          <span className="who">{who}</span>
          <button
            type="button"
            className="btn btn-link"
            onClick={() => {
              disconnectRealtime();
              void logout();
            }}
          >
            Sign out
          </button>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}

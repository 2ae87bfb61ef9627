/**
 * The page of the invitation e-mail's link (/accept-invitation?token=…): it says who invites whom to
 * which organization (POST /user-invitations/lookup), the invitee sets their name and a password
 * (POST /user-invitations/accept), is signed in, and lands on their home — the driver view for a DRIVER.
 * An unknown, used, revoked or expired link says so, with what to do.
 */
import { useState, type FormEvent } from 'react';
import { Link, Redirect, useLocation, useSearch } from 'wouter';
import { api, unwrap } from '../../api/client';
import { disconnectRealtime } from '../../api/realtime';
import { useSession } from '../../api/session';
import { Button, ErrorBanner, Field, Loading, Notice } from '../../components/ui';
import { dateTime, humanize } from '../../lib/format';
import { useApi } from '../../lib/use-api';
import { AuthFrame } from './AuthFrame';

/** Set while this page signs the new account in: the signed-in user is the invitee, on their way home. */
let acceptedHere = false;

export function AcceptInvitationPage() {
  const { state, login, logout } = useSession();
  const [, navigate] = useLocation();
  const token = new URLSearchParams(useSearch()).get('token')?.trim() ?? '';
  const invitation = useApi(async () => (token ? unwrap(api.POST('/api/v1/user-invitations/lookup', { body: { token } })) : undefined), [token]);
  const [error, setError] = useState<unknown>(null);
  const [mismatch, setMismatch] = useState(false);
  const [busy, setBusy] = useState(false);

  if (state.status === 'signed-in') {
    if (acceptedHere) return <Redirect to="/" replace />;
    const who = state.viewer.kind === 'admin' ? state.viewer.email : `${state.viewer.me.firstName} ${state.viewer.me.lastName} (${state.viewer.me.email})`;
    return (
      <AuthFrame title="Accept an invitation">
        <Notice tone="warning">You are signed in as {who}. Sign out first to accept this invitation and create the invitee's account.</Notice>
        <div className="row">
          <Button
            variant="primary"
            onClick={() => {
              disconnectRealtime();
              void logout();
            }}
          >
            Sign out
          </Button>
          <Link href="/">Back to the dashboard</Link>
        </div>
      </AuthFrame>
    );
  }

  if (!token) {
    return (
      <AuthFrame title="Invitation link incomplete">
        <ErrorBanner error="This link carries no invitation token." />
        <p>Open the link from your invitation e-mail again, or copy the whole address into the browser. If it still fails, ask whoever invited you to send a new invitation.</p>
        <p>
          Already have an account? <Link href="/login">Sign in</Link>
        </p>
      </AuthFrame>
    );
  }

  if (invitation.loading && !invitation.data) return <Loading label="Checking your invitation…" />;

  if (invitation.error || !invitation.data) {
    return (
      <AuthFrame title="This invitation cannot be used">
        <ErrorBanner error={invitation.error ?? 'This invitation link is not valid'} />
        <p>Invitations are valid for 7 days and for one account. Ask whoever invited you to send a new invitation.</p>
        <p>
          Already accepted it? <Link href="/login">Sign in</Link>
        </p>
      </AuthFrame>
    );
  }

  const inv = invitation.data;

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const password = String(f.get('password') ?? '');
    if (password !== String(f.get('confirm') ?? '')) {
      setMismatch(true);
      return;
    }
    setMismatch(false);
    setBusy(true);
    setError(null);
    try {
      const { user } = await unwrap(
        api.POST('/api/v1/user-invitations/accept', {
          body: { token, password, firstName: String(f.get('firstName') ?? '').trim(), lastName: String(f.get('lastName') ?? '').trim() },
        }),
      );
      acceptedHere = true;
      await login(user.email, password);
      navigate('/', { replace: true });
    } catch (err) {
      acceptedHere = false;
      setError(err);
      setBusy(false);
    }
  }

  return (
    <AuthFrame title={`Join ${inv.organizationName}`}>
      <p data-testid="invitation-summary">
        {inv.invitedByName ? <strong>{inv.invitedByName}</strong> : 'Your organization'} invited <strong>{inv.email}</strong> to join <strong>{inv.organizationName}</strong> as{' '}
        <strong>{humanize(inv.role)}</strong>.
      </p>
      {inv.linksDriverProfile && <p className="muted">Your account will be linked to your driver profile: you will see your assigned route, your hours-of-service clocks and your log, and can change your duty status.</p>}
      <p className="muted">The invitation expires {dateTime(inv.expiresAt)}.</p>
      <ErrorBanner error={error} />
      <form onSubmit={submit} className="stack">
        <Field label="Email" name="email" type="email" value={inv.email} readOnly autoComplete="username" hint="The address you were invited at; you sign in with it." />
        <div className="row">
          <Field label="First name" name="firstName" required maxLength={100} autoComplete="given-name" defaultValue={inv.firstName ?? ''} />
          <Field label="Last name" name="lastName" required maxLength={100} autoComplete="family-name" defaultValue={inv.lastName ?? ''} />
        </div>
        <Field label="Choose a password" name="password" type="password" required minLength={8} maxLength={256} autoComplete="new-password" hint="At least 8 characters" />
        <Field label="Repeat the password" name="confirm" type="password" required minLength={8} maxLength={256} autoComplete="new-password" error={mismatch ? 'The two passwords differ' : undefined} />
        <Button type="submit" variant="primary" busy={busy}>
          Accept and sign in
        </Button>
      </form>
      <p>
        Already have an account? <Link href="/login">Sign in</Link>
      </p>
    </AuthFrame>
  );
}

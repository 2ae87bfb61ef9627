import { useState, type FormEvent } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { useSession } from '../../api/session';
import { Button, ErrorBanner, Field, Notice } from '../../components/ui';
import { AuthFrame } from './AuthFrame';

export function LoginPage() {
  const { state, login } = useSession();
  const [, navigate] = useLocation();
  const next = new URLSearchParams(useSearch()).get('next');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const notice = state.status === 'anonymous' ? state.notice : undefined;

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    setBusy(true);
    setError(null);
    try {
      await login(String(form.get('email')), String(form.get('password')));
      navigate(next && next.startsWith('/') && !next.startsWith('//') ? next : '/', { replace: true });
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  }

  return (
    <AuthFrame title="Sign in">
      {notice && <Notice>{notice}</Notice>}
      <ErrorBanner error={error} />
      <form onSubmit={submit} className="stack">
        <Field label="Email" name="email" type="email" autoComplete="username" required autoFocus />
        <Field label="Password" name="password" type="password" autoComplete="current-password" required />
        <Button type="submit" variant="primary" busy={busy}>
          Sign in
        </Button>
      </form>
      <p>
        New here? <Link href="/register">Register your organization</Link>
      </p>
    </AuthFrame>
  );
}

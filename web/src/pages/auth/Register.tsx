import { useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { api, unwrap } from '../../api/client';
import { useSession } from '../../api/session';
import { Button, ErrorBanner, Field } from '../../components/ui';
import { AuthFrame } from './AuthFrame';

/** Registers an organization and its first user (OWNER), then signs in: the pending screen follows. */
export function RegisterPage() {
  const { login } = useSession();
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const v = (k: string) => String(f.get(k) ?? '').trim();
    setBusy(true);
    setError(null);
    try {
      await unwrap(
        api.POST('/api/v1/tenants/register', {
          body: {
            organization: { name: v('orgName'), address: v('address'), phone: v('phone'), contactEmail: v('contactEmail'), ...(v('dotNumber') ? { dotNumber: v('dotNumber') } : {}), ...(v('mcNumber') ? { mcNumber: v('mcNumber') } : {}) },
            adminUser: { firstName: v('firstName'), lastName: v('lastName'), email: v('email'), password: String(f.get('password') ?? '') },
          },
        }),
      );
      await login(v('email'), String(f.get('password') ?? ''));
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  }

  return (
    <AuthFrame title="Register your organization">
      <ErrorBanner error={error} />
      <form onSubmit={submit} className="stack">
        <fieldset>
          <legend>Organization</legend>
          <Field label="Organization name" name="orgName" required autoComplete="organization" />
          <Field label="Address" name="address" required autoComplete="street-address" />
          <Field label="Phone" name="phone" type="tel" required autoComplete="tel" />
          <Field label="Contact email" name="contactEmail" type="email" required />
          <div className="row">
            <Field label="DOT number (optional)" name="dotNumber" />
            <Field label="MC number (optional)" name="mcNumber" />
          </div>
        </fieldset>
        <fieldset>
          <legend>Your account (owner)</legend>
          <div className="row">
            <Field label="First name" name="firstName" required autoComplete="given-name" />
            <Field label="Last name" name="lastName" required autoComplete="family-name" />
          </div>
          <Field label="Your email" name="email" type="email" required autoComplete="email" />
          <Field label="Password" name="password" type="password" required minLength={8} autoComplete="new-password" hint="At least 8 characters" />
        </fieldset>
        <Button type="submit" variant="primary" busy={busy}>
          Register
        </Button>
      </form>
      <p>
        Already registered? <Link href="/login">Sign in</Link>
      </p>
    </AuthFrame>
  );
}

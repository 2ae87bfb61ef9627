/**
 * Inviting a user by e-mail with a role; a DRIVER invitation may link a driver profile that has no
 * account or pending invitation yet (searched by name, licence or truck).
 */
import { useRef, useState, type FormEvent } from 'react';
import { api, unwrap } from '../../api/client';
import { useMe } from '../../api/session';
import { Button, ErrorBanner, Field, Notice, SelectField } from '../../components/ui';
import { dateTime, humanize } from '../../lib/format';
import { fieldErrors, linkedDrivers } from '../../lib/settings';
import { useApi } from '../../lib/use-api';
import { allPages, driverChoiceLabel, rolesGivenBy, type Role } from '../../lib/users';

export function InviteUserForm({ tick, onInvited }: { tick: number; onInvited: () => void }) {
  const me = useMe();
  const [role, setRole] = useState<Role>('DISPATCHER');
  const [first, setFirst] = useState('');
  const [last, setLast] = useState('');
  const [driverId, setDriverId] = useState('');
  const [driverSearch, setDriverSearch] = useState('');
  const searchTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const drivers = useApi(
    () => (role === 'DRIVER' ? unwrap(api.GET('/api/v1/drivers', { params: { query: { pageSize: 100, ...(driverSearch ? { search: driverSearch } : {}) } } })) : Promise.resolve(null)),
    [role, driverSearch],
  );
  // The driver list does not say which profiles are taken: the users and pending invitations do.
  const taken = useApi(
    async () =>
      role !== 'DRIVER'
        ? null
        : linkedDrivers(
            await allPages((page) => unwrap(api.GET('/api/v1/users', { params: { query: { page, pageSize: 100 } } }))),
            await allPages((page) => unwrap(api.GET('/api/v1/user-invitations', { params: { query: { page, pageSize: 100 } } }))),
          ),
    [role, tick],
  );
  const linkable = drivers.data && taken.data ? drivers.data.data.filter((d) => !taken.data!.has(d.id) && d.status !== 'INACTIVE') : [];
  const loadingDrivers = (drivers.loading && !drivers.data) || (taken.loading && !taken.data);
  const roleOptions = rolesGivenBy(me.role);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const email = String(new FormData(form).get('email') ?? '').trim();
    const local: Record<string, string> = {};
    if (!email) local.email = 'Enter the e-mail address to invite.';
    setErrors(local);
    setError(null);
    setNotice(null);
    if (Object.keys(local).length > 0) return;
    setBusy(true);
    try {
      const inv = await unwrap(
        api.POST('/api/v1/user-invitations', {
          body: {
            email,
            role,
            ...(first.trim() ? { firstName: first.trim() } : {}),
            ...(last.trim() ? { lastName: last.trim() } : {}),
            ...(role === 'DRIVER' && driverId ? { driverId } : {}),
          },
        }),
      );
      form.reset();
      setFirst('');
      setLast('');
      setDriverId('');
      setNotice(`Invitation sent to ${inv.email} (${humanize(inv.role)}); it expires ${dateTime(inv.expiresAt)}.`);
      onInvited();
    } catch (err) {
      setErrors(fieldErrors(err));
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="card" onSubmit={submit} noValidate aria-labelledby="invite-heading">
        <h2 id="invite-heading">Invite a user</h2>
        <p className="muted">They receive an e-mail with a link to choose a password; the link works for 7 days.</p>
        <div className="row">
          <Field label="Email" name="email" type="email" autoComplete="off" required error={errors.email} />
          <SelectField
            label="Role"
            value={role}
            options={roleOptions.map((r) => ({ value: r.value, label: `${r.label}: ${r.hint}` }))}
            onChange={(e) => {
              setRole(e.target.value as Role);
              setDriverId('');
            }}
          />
        </div>
        <div className="row">
          <Field label="First name (optional)" value={first} maxLength={100} onChange={(e) => setFirst(e.target.value)} error={errors.firstName} />
          <Field label="Last name (optional)" value={last} maxLength={100} onChange={(e) => setLast(e.target.value)} error={errors.lastName} />
        </div>
        {role === 'DRIVER' && (
          <fieldset>
            <legend>Driver profile</legend>
            <p className="muted small">Link the driver whose route and clocks this user will see. Only drivers without an account are listed.</p>
            <div className="row">
              <Field
                label="Search drivers"
                type="search"
                placeholder="Name, licence or truck"
                onChange={(e) => {
                  const v = e.target.value.trim();
                  clearTimeout(searchTimer.current);
                  searchTimer.current = setTimeout(() => setDriverSearch(v), 250);
                }}
              />
              <SelectField
                label="Driver to link"
                value={driverId}
                aria-invalid={errors.driverId ? true : undefined}
                options={[{ value: '', label: loadingDrivers ? 'Loading drivers…' : 'No driver (link later)' }, ...linkable.map((d) => ({ value: d.id, label: driverChoiceLabel(d) }))]}
                onChange={(e) => {
                  const id = e.target.value;
                  setDriverId(id);
                  const d = linkable.find((x) => x.id === id);
                  if (d) {
                    if (!first.trim()) setFirst(d.firstName);
                    if (!last.trim()) setLast(d.lastName);
                  }
                }}
                hint={!loadingDrivers && linkable.length === 0 ? 'No driver without an account or invitation matches.' : undefined}
              />
            </div>
            {errors.driverId && <small className="field-error">{errors.driverId}</small>}
            <ErrorBanner error={drivers.error ?? taken.error} />
          </fieldset>
        )}
        {Object.keys(errors).length === 0 && <ErrorBanner error={error} />}
        {notice && <Notice tone="success">{notice}</Notice>}
        <div className="form-actions">
          <Button type="submit" variant="primary" busy={busy}>
            Send invitation
          </Button>
        </div>
    </form>
  );
}

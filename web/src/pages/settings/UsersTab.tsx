/**
 * Users and invitations (OWNER and ADMIN): the organization's users with role changes and deactivation,
 * and invitations by e-mail — a DRIVER invitation may link a driver profile, so the driver signs in to
 * their own route and clocks.
 */
import { useRef, useState, type FormEvent } from 'react';
import { api, unwrap, type Body, type Item } from '../../api/client';
import { useMe, useRoleAtLeast } from '../../api/session';
import { Button, ErrorBanner, Field, Loading, Notice, Pagination, SelectField, StatusBadge, TableWrap } from '../../components/ui';
import { dateTime, humanize, relative } from '../../lib/format';
import { fieldErrors, linkedDrivers } from '../../lib/settings';
import { useApi } from '../../lib/use-api';
import { useActions, useConfirm } from './common';

type User = Item<'/api/v1/users'>;
type Invitation = Item<'/api/v1/user-invitations'>;
type Role = Body<'/api/v1/user-invitations', 'post'>['role'];
const PAGE_SIZE = 20;

const ROLES: Array<{ value: Role; label: string; hint: string }> = [
  { value: 'OWNER', label: 'Owner', hint: 'everything, including owners' },
  { value: 'ADMIN', label: 'Admin', hint: 'settings, users, API keys, webhooks, integrations' },
  { value: 'DISPATCHER', label: 'Dispatcher', hint: 'plans routes, manages drivers, vehicles, loads and alerts' },
  { value: 'VIEWER', label: 'Viewer', hint: 'reads everything, changes nothing' },
  { value: 'DRIVER', label: 'Driver', hint: 'sees only their own route and clocks' },
];

export function UsersTab() {
  const canManage = useRoleAtLeast('ADMIN');
  if (!canManage) return <Notice>Only an owner or administrator can see and manage users and invitations.</Notice>;
  return <UsersAndInvitations />;
}

function UsersAndInvitations() {
  // A new invitation reloads the invitation list.
  const [invTick, setInvTick] = useState(0);
  return (
    <div className="stack">
      <InviteForm tick={invTick} onInvited={() => setInvTick((t) => t + 1)} />
      <Invitations tick={invTick} />
      <Users />
    </div>
  );
}

/** Every page of a list (pages of 100). */
async function allPages<T>(load: (page: number) => Promise<{ data: T[]; total: number }>): Promise<T[]> {
  const out: T[] = [];
  for (let page = 1; ; page++) {
    const p = await load(page);
    out.push(...p.data);
    if (p.data.length === 0 || out.length >= p.total) return out;
  }
}

function InviteForm({ tick, onInvited }: { tick: number; onInvited: () => void }) {
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
  const roleOptions = ROLES.filter((r) => r.value !== 'OWNER' || me.role === 'OWNER');

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
                options={[{ value: '', label: loadingDrivers ? 'Loading drivers…' : 'No driver (link later)' }, ...linkable.map((d) => ({ value: d.id, label: `${d.firstName} ${d.lastName} · ${d.licenseState} ${d.licenseNumber}${d.truckNumber ? ` · truck ${d.truckNumber}` : ''}` }))]}
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

function Invitations({ tick }: { tick: number }) {
  const [page, setPage] = useState(1);
  const list = useApi(() => unwrap(api.GET('/api/v1/user-invitations', { params: { query: { page, pageSize: PAGE_SIZE } } })), [page, tick]);
  const { feedback, setNotice } = useActions();
  const { confirm, dialog } = useConfirm();

  function revoke(inv: Invitation) {
    confirm({
      title: 'Revoke invitation',
      message: (
        <p>
          Revoke the invitation of <strong>{inv.email}</strong>? The link in their e-mail stops working.
        </p>
      ),
      confirmLabel: 'Revoke invitation',
      danger: true,
      run: async () => {
        await unwrap(api.DELETE('/api/v1/user-invitations/{id}', { params: { path: { id: inv.id } }, body: {} }));
        list.reload();
        setNotice(`Invitation of ${inv.email} revoked.`);
      },
    });
  }

  return (
    <section aria-labelledby="invitations-heading">
      <h2 id="invitations-heading">Invitations</h2>
      {feedback}
      {list.error && <ErrorBanner error={list.error} />}
      {!list.data ? (
        !list.error && <Loading />
      ) : list.data.data.length === 0 ? (
        <p className="empty">No invitations yet.</p>
      ) : (
        <>
          <TableWrap>
            <table>
              <caption className="visually-hidden">Invitations</caption>
              <thead>
                <tr>
                  <th scope="col">Email</th>
                  <th scope="col">Name</th>
                  <th scope="col">Role</th>
                  <th scope="col">Status</th>
                  <th scope="col">Sent</th>
                  <th scope="col">Expires</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.data.data.map((inv) => (
                  <tr key={inv.id}>
                    <td>{inv.email}</td>
                    <td>{[inv.firstName, inv.lastName].filter(Boolean).join(' ') || '—'}</td>
                    <td>
                      {humanize(inv.role)}
                      {inv.driverId && <div className="muted small">linked to a driver profile</div>}
                    </td>
                    <td>
                      <StatusBadge value={inv.status} />
                    </td>
                    <td>{dateTime(inv.createdAt)}</td>
                    <td>{inv.status === 'PENDING' ? dateTime(inv.expiresAt) : '—'}</td>
                    <td className="actions">
                      {inv.status === 'PENDING' && (
                        <Button variant="link" className="danger-link" onClick={() => revoke(inv)} aria-label={`Revoke the invitation of ${inv.email}`}>
                          Revoke
                        </Button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
          <Pagination page={page} pageSize={PAGE_SIZE} total={list.data.total} onPage={setPage} />
        </>
      )}
      {dialog}
    </section>
  );
}

function Users() {
  const me = useMe();
  const [page, setPage] = useState(1);
  const list = useApi(() => unwrap(api.GET('/api/v1/users', { params: { query: { page, pageSize: PAGE_SIZE } } })), [page]);
  const [roles, setRoles] = useState<Record<string, Role>>({});
  const { feedback, setNotice } = useActions();
  const { confirm, dialog } = useConfirm();

  /** Nobody changes themselves; only an OWNER touches an OWNER. */
  const editable = (u: User) => u.id !== me.id && u.status === 'ACTIVE' && (u.role !== 'OWNER' || me.role === 'OWNER');
  const roleOptions = ROLES.filter((r) => r.value !== 'OWNER' || me.role === 'OWNER').map((r) => ({ value: r.value, label: r.label }));

  function changeRole(u: User) {
    const role = roles[u.id];
    if (!role || role === u.role) return;
    confirm({
      title: 'Change role',
      message: (
        <p>
          Make <strong>
            {u.firstName} {u.lastName}
          </strong>{' '}
          {humanize(role)} instead of {humanize(u.role)}? It applies from their next request.
        </p>
      ),
      confirmLabel: 'Change role',
      run: async () => {
        await unwrap(api.PUT('/api/v1/users/{id}', { params: { path: { id: u.id } }, body: { role } }));
        setRoles(({ [u.id]: _, ...rest }) => rest);
        list.reload();
        setNotice(`${u.firstName} ${u.lastName} is now ${humanize(role)}.`);
      },
    });
  }

  function deactivate(u: User) {
    confirm({
      title: 'Deactivate user',
      message: (
        <p>
          Deactivate <strong>
            {u.firstName} {u.lastName}
          </strong>{' '}
          ({u.email})? They are signed out everywhere and the API keys they created stop working.
        </p>
      ),
      confirmLabel: 'Deactivate user',
      danger: true,
      run: async () => {
        await unwrap(api.DELETE('/api/v1/users/{id}', { params: { path: { id: u.id } }, body: {} }));
        list.reload();
        setNotice(`${u.firstName} ${u.lastName} deactivated.`);
      },
    });
  }

  return (
    <section aria-labelledby="users-heading">
      <h2 id="users-heading">Users</h2>
      {feedback}
      {list.error && <ErrorBanner error={list.error} />}
      {!list.data ? (
        !list.error && <Loading />
      ) : (
        <>
          <TableWrap>
            <table>
              <caption className="visually-hidden">Users</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Email</th>
                  <th scope="col">Role</th>
                  <th scope="col">Status</th>
                  <th scope="col">Last sign-in</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.data.data.map((u) => {
                  const chosen = roles[u.id] ?? u.role;
                  return (
                    <tr key={u.id}>
                      <td>
                        {u.firstName} {u.lastName}
                        {u.id === me.id && <span className="muted"> (you)</span>}
                        {u.driverId && <div className="muted small">driver profile linked</div>}
                      </td>
                      <td>{u.email}</td>
                      <td>
                        {editable(u) ? (
                          <div className="inline-edit">
                            <label className="visually-hidden" htmlFor={`role-${u.id}`}>
                              Role of {u.firstName} {u.lastName}
                            </label>
                            <select id={`role-${u.id}`} value={chosen} onChange={(e) => setRoles((r) => ({ ...r, [u.id]: e.target.value as Role }))}>
                              {roleOptions.map((o) => (
                                <option key={o.value} value={o.value}>
                                  {o.label}
                                </option>
                              ))}
                            </select>
                            {chosen !== u.role && (
                              <Button variant="primary" onClick={() => changeRole(u)}>
                                Apply
                              </Button>
                            )}
                          </div>
                        ) : (
                          humanize(u.role)
                        )}
                      </td>
                      <td>
                        <StatusBadge value={u.status} />
                      </td>
                      <td>{u.lastLoginAt ? <span title={dateTime(u.lastLoginAt)}>{relative(u.lastLoginAt)}</span> : 'Never'}</td>
                      <td className="actions">
                        {editable(u) && (
                          <Button variant="link" className="danger-link" onClick={() => deactivate(u)} aria-label={`Deactivate ${u.firstName} ${u.lastName}`}>
                            Deactivate
                          </Button>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </TableWrap>
          <Pagination page={page} pageSize={PAGE_SIZE} total={list.data.total} onPage={setPage} />
        </>
      )}
      {dialog}
    </section>
  );
}

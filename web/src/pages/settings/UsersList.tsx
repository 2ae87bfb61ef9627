/** The organization's users: role changes (confirmed first) and deactivation, never of oneself. */
import { useState } from 'react';
import { api, unwrap, type Item } from '../../api/client';
import { useMe } from '../../api/session';
import { Button, ErrorBanner, Loading, Pagination, StatusBadge, TableWrap } from '../../components/ui';
import { dateTime, humanize, relative } from '../../lib/format';
import { useApi } from '../../lib/use-api';
import { canChangeUser, rolesGivenBy, type Role } from '../../lib/users';
import { useActions, useConfirm } from './common';

type User = Item<'/api/v1/users'>;
const PAGE_SIZE = 20;

export function UsersList() {
  const me = useMe();
  const [page, setPage] = useState(1);
  const list = useApi(() => unwrap(api.GET('/api/v1/users', { params: { query: { page, pageSize: PAGE_SIZE } } })), [page]);
  const [roles, setRoles] = useState<Record<string, Role>>({});
  const { feedback, setNotice } = useActions();
  const { confirm, dialog } = useConfirm();

  const editable = (u: User) => canChangeUser(u, me);
  const roleOptions = rolesGivenBy(me.role).map((r) => ({ value: r.value, label: r.label }));

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

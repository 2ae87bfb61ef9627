/** The organization's invitations with their status; a pending one can be revoked. */
import { useState } from 'react';
import { api, unwrap, type Item } from '../../api/client';
import { Button, ErrorBanner, Loading, Pagination, StatusBadge, TableWrap } from '../../components/ui';
import { dateTime, humanize } from '../../lib/format';
import { useApi } from '../../lib/use-api';
import { useActions, useConfirm } from './common';

type Invitation = Item<'/api/v1/user-invitations'>;
const PAGE_SIZE = 20;

export function InvitationsList({ tick }: { tick: number }) {
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

/**
 * API keys for server-to-server access: create (the key is shown once), list (never the secret, only its
 * first characters), revoke (requests with it answer 401 from then on). OWNER and ADMIN only.
 */
import { useState, type FormEvent } from 'react';
import { api, unwrap, type Item } from '../../api/client';
import { useRoleAtLeast } from '../../api/session';
import { Button, ErrorBanner, Field, Loading, Notice, Pagination, StatusBadge, TableWrap } from '../../components/ui';
import { dateTime, relative } from '../../lib/format';
import { fieldErrors } from '../../lib/settings';
import { useApi } from '../../lib/use-api';
import { ShownOnceDialog, useActions, useConfirm } from './common';

type ApiKey = Item<'/api/v1/api-keys'>;
const PAGE_SIZE = 20;

export function ApiKeysTab() {
  const canManage = useRoleAtLeast('ADMIN');
  if (!canManage) return <Notice>Only an owner or administrator can see and manage API keys.</Notice>;
  return <ApiKeys />;
}

function ApiKeys() {
  const [page, setPage] = useState(1);
  const keys = useApi(() => unwrap(api.GET('/api/v1/api-keys', { params: { query: { page, pageSize: PAGE_SIZE } } })), [page]);
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);
  const [nameError, setNameError] = useState<string | undefined>();
  const [createError, setCreateError] = useState<unknown>(null);
  const [creating, setCreating] = useState(false);
  const { feedback, setNotice } = useActions();
  const { confirm, dialog } = useConfirm();

  async function create(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const name = String(new FormData(form).get('name') ?? '').trim();
    setCreateError(null);
    if (!name) return setNameError('Give the key a name.');
    setNameError(undefined);
    setCreating(true);
    try {
      const key = await unwrap(api.POST('/api/v1/api-keys', { body: { name } }));
      form.reset();
      setCreated({ name: key.name, key: key.key });
      if (page === 1) keys.reload();
      else setPage(1);
    } catch (err) {
      setNameError(fieldErrors(err).name);
      setCreateError(err);
    } finally {
      setCreating(false);
    }
  }

  function revoke(k: ApiKey) {
    confirm({
      title: 'Revoke API key',
      message: (
        <p>
          Revoke <strong>{k.name}</strong> ({k.prefix}…)? Every request made with it will be refused from now on. This cannot be undone.
        </p>
      ),
      confirmLabel: 'Revoke key',
      danger: true,
      run: async () => {
        await unwrap(api.DELETE('/api/v1/api-keys/{id}', { params: { path: { id: k.id } }, body: {} }));
        keys.reload();
        setNotice(`${k.name} revoked: requests with it are refused.`);
      },
    });
  }

  return (
    <div className="stack">
      <p className="muted">
        Programs use an API key instead of a sign-in: send it as the <code>X-API-Key</code> header (or <code>Authorization: Bearer …</code>).
      </p>
      <form className="card" onSubmit={create} noValidate aria-labelledby="new-key-heading">
        <h2 id="new-key-heading">New API key</h2>
        <div className="row key-row">
          <Field label="Key name" name="name" maxLength={100} placeholder="e.g. TMS connector" hint="What the key is for, to recognise it later." error={nameError} />
          <Button type="submit" variant="primary" busy={creating}>
            Create key
          </Button>
        </div>
        {!nameError && <ErrorBanner error={createError} />}
      </form>

      {feedback}
      <h2>Keys</h2>
      {keys.error && <ErrorBanner error={keys.error} />}
      {!keys.data ? (
        !keys.error && <Loading />
      ) : keys.data.data.length === 0 ? (
        <p className="empty">No API keys yet. Create one above to connect another system.</p>
      ) : (
        <>
          <TableWrap>
            <table>
              <caption className="visually-hidden">API keys</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Key</th>
                  <th scope="col">Environment</th>
                  <th scope="col">Created</th>
                  <th scope="col">Last used</th>
                  <th scope="col">Status</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {keys.data.data.map((k) => (
                  <tr key={k.id}>
                    <td>{k.name}</td>
                    <td>
                      <code>{k.prefix}…</code>
                    </td>
                    <td>{k.environment}</td>
                    <td>{dateTime(k.createdAt)}</td>
                    <td>{k.lastUsedAt ? <span title={dateTime(k.lastUsedAt)}>{relative(k.lastUsedAt)}</span> : 'Never'}</td>
                    <td>
                      <StatusBadge value={k.revokedAt ? 'REVOKED' : 'ACTIVE'} />
                      {k.revokedAt && <div className="muted small">{dateTime(k.revokedAt)}</div>}
                    </td>
                    <td className="actions">
                      {!k.revokedAt && (
                        <Button variant="danger" onClick={() => revoke(k)} aria-label={`Revoke ${k.name}`}>
                          Revoke
                        </Button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
          <Pagination page={page} pageSize={PAGE_SIZE} total={keys.data.total} onPage={setPage} />
        </>
      )}
      {dialog}
      <ShownOnceDialog secret={created?.key ?? null} title={`API key “${created?.name ?? ''}” created`} label="API key" onClose={() => setCreated(null)}>
        <p>
          Use it as the <code>X-API-Key</code> header of your requests.
        </p>
      </ShownOnceDialog>
    </div>
  );
}

/**
 * Integrations with ELD, TMS, fuel and weather vendors: the vendor registry (connect one with its config
 * fields; credentials as password inputs, encrypted by the server and never shown again), then each
 * connection's status, last sync and its counts, last test and last error, with test, sync now,
 * disable / enable and delete.
 */
import { useState, type FormEvent } from 'react';
import { api, unwrap, type Item, type Ok } from '../../api/client';
import { useRoleAtLeast } from '../../api/session';
import { Button, Dialog, ErrorBanner, Facts, Field, Loading, StatusBadge } from '../../components/ui';
import { dateTime, humanize, relative } from '../../lib/format';
import { configFieldLabel, configFields, describeCounts, fieldErrors } from '../../lib/settings';
import { useApi, useInterval } from '../../lib/use-api';
import { ReadOnlyNote, useActions, useConfirm } from './common';

type Vendor = Item<'/api/v1/integrations/vendors'>;
type Integration = Item<'/api/v1/integrations'>;
type TestResult = Ok<'/api/v1/integrations/{integrationId}/test', 'post'>;

const CATEGORIES: Array<[Vendor['category'], string]> = [
  ['ELD', 'Electronic logging devices'],
  ['TMS', 'Transportation management'],
  ['FUEL', 'Fuel prices'],
  ['WEATHER', 'Weather'],
];

export function IntegrationsTab() {
  const canEdit = useRoleAtLeast('ADMIN');
  const vendors = useApi(() => unwrap(api.GET('/api/v1/integrations/vendors')), []);
  const list = useApi(() => unwrap(api.GET('/api/v1/integrations')), []);
  const [connecting, setConnecting] = useState<Vendor | null>(null);
  const [results, setResults] = useState<Record<string, TestResult>>({});
  const { busy, run, feedback, setNotice } = useActions();
  const { confirm, dialog } = useConfirm();

  // A sync or a test runs in the background: follow it until it settles.
  const moving = list.data?.data.some((i) => i.status === 'SYNCING' || i.status === 'TESTING') ?? false;
  useInterval(() => {
    if (moving) list.reload();
  }, 3000);

  const vendorOf = (i: Integration) => vendors.data?.data.find((v) => v.vendor === i.vendor);

  function test(i: Integration, enable = false) {
    void run(`test-${i.id}`, async () => {
      const r = enable
        ? await unwrap(api.POST('/api/v1/integrations/{integrationId}/enable', { params: { path: { integrationId: i.id } }, body: {} }))
        : await unwrap(api.POST('/api/v1/integrations/{integrationId}/test', { params: { path: { integrationId: i.id } }, body: {} }));
      setResults((prev) => ({ ...prev, [i.id]: r }));
      list.reload();
    });
  }

  function sync(i: Integration) {
    void run(`sync-${i.id}`, async () => {
      const r = await unwrap(api.POST('/api/v1/integrations/{integrationId}/sync', { params: { path: { integrationId: i.id } }, body: {} }));
      list.reload();
      setNotice(`${i.name}: ${r.message}`);
    });
  }

  function disable(i: Integration) {
    confirm({
      title: 'Disable integration',
      message: (
        <p>
          Pause syncing <strong>{i.name}</strong>? Its credentials are kept; enabling it again runs a connection test first.
        </p>
      ),
      confirmLabel: 'Disable',
      danger: true,
      run: async () => {
        await unwrap(api.POST('/api/v1/integrations/{integrationId}/disable', { params: { path: { integrationId: i.id } }, body: {} }));
        list.reload();
        setNotice(`${i.name} disabled.`);
      },
    });
  }

  function remove(i: Integration) {
    confirm({
      title: 'Delete integration',
      message: (
        <p>
          Delete <strong>{i.name}</strong> and its stored credentials? Data already synced stays. This cannot be undone.
        </p>
      ),
      confirmLabel: 'Delete integration',
      danger: true,
      run: async () => {
        await unwrap(api.DELETE('/api/v1/integrations/{integrationId}', { params: { path: { integrationId: i.id } }, body: {} }));
        list.reload();
        setNotice(`${i.name} deleted.`);
      },
    });
  }

  return (
    <div className="stack">
      {!canEdit && <ReadOnlyNote what="integrations" />}
      {feedback}
      <h2>Connected</h2>
      {list.error && <ErrorBanner error={list.error} />}
      {!list.data ? (
        !list.error && <Loading />
      ) : list.data.data.length === 0 ? (
        <p className="empty">No integrations yet.{canEdit ? ' Connect a vendor below to bring in ELD clocks, positions, loads, fuel prices or weather.' : ''}</p>
      ) : (
        <ul className="integration-list" aria-label="Integrations">
          {list.data.data.map((i) => {
            const result = results[i.id];
            const working = busy?.endsWith(i.id) ?? false;
            return (
              <li key={i.id} className="card integration" aria-labelledby={`int-${i.id}`}>
                <div className="integration-head">
                  <div>
                    <h3 id={`int-${i.id}`}>{i.name}</h3>
                    <div className="muted small">
                      {vendorOf(i)?.name ?? i.vendor} · {i.category} · every {i.syncIntervalMinutes} min
                    </div>
                  </div>
                  <StatusBadge value={i.status} />
                </div>
                <Facts
                  items={[
                    ['Last sync', i.lastSyncAt ? <span title={dateTime(i.lastSyncAt)}>{relative(i.lastSyncAt)}</span> : 'Never'],
                    ['Next sync', i.status === 'ACTIVE' && i.nextSyncAt ? dateTime(i.nextSyncAt) : '—'],
                    ['Last test', i.lastTest ? `${humanize(i.lastTest.testResult)}: ${i.lastTest.message} (${relative(i.lastTest.testedAt)})` : 'Not tested yet'],
                  ]}
                />
                {i.lastSyncCounts && <p className="small sync-counts">Last sync brought: {describeCounts(i.lastSyncCounts)}</p>}
                {i.lastError && (
                  <div className="banner banner-error" role="note">
                    <strong>{humanize(i.lastError.code)}</strong> ({dateTime(i.lastError.at)}): {i.lastError.details}
                  </div>
                )}
                {i.status === 'CONFIGURED' && !result && <p className="muted small">Test the connection to start syncing.</p>}
                {result && <TestOutcome result={result} onDismiss={() => setResults(({ [i.id]: _, ...rest }) => rest)} />}
                {canEdit && (
                  <div className="form-actions">
                    <Button busy={busy === `test-${i.id}`} disabled={working} onClick={() => test(i)} aria-label={`Test the connection of ${i.name}`}>
                      Test connection
                    </Button>
                    <Button busy={busy === `sync-${i.id}`} disabled={working || i.status !== 'ACTIVE'} onClick={() => sync(i)} aria-label={`Sync ${i.name} now`}>
                      Sync now
                    </Button>
                    {i.status === 'DISABLED' ? (
                      <Button disabled={working} onClick={() => test(i, true)} aria-label={`Enable ${i.name}`}>
                        Enable
                      </Button>
                    ) : (
                      <Button disabled={working} onClick={() => disable(i)} aria-label={`Disable ${i.name}`}>
                        Disable
                      </Button>
                    )}
                    <Button variant="danger" disabled={working} onClick={() => remove(i)} aria-label={`Delete ${i.name}`}>
                      Delete
                    </Button>
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      )}

      <h2>Vendors</h2>
      {vendors.error && <ErrorBanner error={vendors.error} />}
      {!vendors.data ? (
        !vendors.error && <Loading />
      ) : (
        CATEGORIES.filter(([c]) => vendors.data!.data.some((v) => v.category === c)).map(([category, label]) => (
          <section key={category} aria-labelledby={`cat-${category}`}>
            <h3 id={`cat-${category}`}>{label}</h3>
            <ul className="vendor-grid">
              {vendors.data!.data
                .filter((v) => v.category === category)
                .map((v) => (
                  <li key={v.vendor} className="card vendor">
                    <h4>{v.name}</h4>
                    <p className="small">{v.description}</p>
                    <p className="muted small">
                      Needs: {v.requiredFields.length > 0 ? v.requiredFields.map(configFieldLabel).join(', ') : 'no credentials'} · syncs every {v.defaultSyncInterval} min
                      {v.documentationUrl && (
                        <>
                          {' · '}
                          <a href={v.documentationUrl} target="_blank" rel="noreferrer">
                            documentation
                          </a>
                        </>
                      )}
                    </p>
                    {canEdit && (
                      <Button onClick={() => setConnecting(v)} aria-label={`Connect ${v.name}`}>
                        Connect
                      </Button>
                    )}
                  </li>
                ))}
            </ul>
          </section>
        ))
      )}

      <Dialog open={connecting !== null} title={`Connect ${connecting?.name ?? ''}`} onClose={() => setConnecting(null)}>
        {connecting && (
          <ConnectForm
            vendor={connecting}
            onCancel={() => setConnecting(null)}
            onCreated={(i) => {
              setConnecting(null);
              list.reload();
              setNotice(`${i.name} connected. Test the connection to start syncing.`);
            }}
          />
        )}
      </Dialog>
      {dialog}
    </div>
  );
}

function TestOutcome({ result, onDismiss }: { result: TestResult; onDismiss: () => void }) {
  const ok = result.testResult === 'SUCCESS';
  const details = Object.entries(result.details);
  return (
    <div className={`banner ${ok ? 'banner-success' : 'banner-error'} test-outcome`} role="status">
      <div className="toolbar">
        <strong className="grow">
          Connection test {ok ? 'passed' : 'failed'}: {result.message}
        </strong>
        <Button variant="link" onClick={onDismiss}>
          Dismiss
        </Button>
      </div>
      {result.error && (
        <p>
          {humanize(result.error.code)}: {result.error.details}
        </p>
      )}
      {details.length > 0 && <Facts items={details.map(([k, v]) => [configFieldLabel(k), typeof v === 'object' ? JSON.stringify(v) : String(v)])} />}
    </div>
  );
}

function ConnectForm({ vendor, onCancel, onCreated }: { vendor: Vendor; onCancel: () => void; onCreated: (i: Integration) => void }) {
  const fields = configFields(vendor);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const name = String(form.get('name') ?? '').trim();
    const interval = String(form.get('interval') ?? '').trim();
    const config: Record<string, string> = {};
    const local: Record<string, string> = {};
    if (!name) local.name = 'Give the integration a name.';
    if (interval && !/^\d+$/.test(interval)) local.syncIntervalMinutes = 'Enter whole minutes.';
    for (const f of fields) {
      const v = String(form.get(`config.${f.key}`) ?? '').trim();
      if (v) config[f.key] = v;
      else if (f.required) local[`config.${f.key}`] = 'Required.';
    }
    setErrors(local);
    setError(null);
    if (Object.keys(local).length > 0) return;
    setBusy(true);
    try {
      const created = await unwrap(api.POST('/api/v1/integrations', { body: { vendor: vendor.vendor, name, config, ...(interval ? { syncIntervalMinutes: Number(interval) } : {}) } }));
      onCreated(created);
    } catch (err) {
      setErrors(fieldErrors(err));
      setError(err);
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate className="stack">
      <p className="muted">{vendor.description}</p>
      <Field label="Name" name="name" defaultValue={vendor.name} maxLength={200} required error={errors.name} />
      {fields.map((f) => (
        <Field
          key={f.key}
          label={`${f.label}${f.required ? '' : ' (optional)'}`}
          name={`config.${f.key}`}
          type={f.secret ? 'password' : 'text'}
          autoComplete={f.secret ? 'new-password' : 'off'}
          spellCheck={false}
          required={f.required}
          hint={f.secret ? 'Stored encrypted; never shown again.' : undefined}
          error={errors[`config.${f.key}`]}
        />
      ))}
      <Field
        label="Sync interval (minutes)"
        name="interval"
        type="number"
        min={1}
        max={10080}
        step={1}
        placeholder={String(vendor.defaultSyncInterval)}
        hint={`Default: every ${vendor.defaultSyncInterval} minutes.`}
        error={errors.syncIntervalMinutes}
      />
      <ErrorBanner error={error} />
      <div className="dialog-actions">
        <Button onClick={onCancel}>Cancel</Button>
        <Button type="submit" variant="primary" busy={busy}>
          Connect
        </Button>
      </div>
    </form>
  );
}


/**
 * Integrations with ELD, TMS, fuel and weather vendors: the vendor registry (connect one with its config
 * fields; credentials as password inputs, encrypted by the server and never shown again), then each
 * connection's status, last sync and its counts, last test and last error, with test, sync now,
 * disable / enable and delete.
 */
import { useState } from 'react';
import { api, unwrap, type Item } from '../../api/client';
import { useRoleAtLeast } from '../../api/session';
import { Dialog, ErrorBanner, Loading } from '../../components/ui';
import { useApi, useInterval } from '../../lib/use-api';
import { ReadOnlyNote, useActions, useConfirm } from './common';
import { ConnectIntegrationForm } from './ConnectIntegrationForm';
import { IntegrationCard, type TestResult } from './IntegrationCard';
import { VendorCatalog } from './VendorCatalog';

type Vendor = Item<'/api/v1/integrations/vendors'>;
type Integration = Item<'/api/v1/integrations'>;

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
          {list.data.data.map((i) => (
            <IntegrationCard
              key={i.id}
              integration={i}
              vendorName={vendorOf(i)?.name ?? i.vendor}
              result={results[i.id]}
              busy={busy}
              canEdit={canEdit}
              onTest={test}
              onSync={sync}
              onDisable={disable}
              onRemove={remove}
              onDismiss={() => setResults(({ [i.id]: _, ...rest }) => rest)}
            />
          ))}
        </ul>
      )}

      <h2>Vendors</h2>
      {vendors.error && <ErrorBanner error={vendors.error} />}
      {!vendors.data ? (
        !vendors.error && <Loading />
      ) : (
        <VendorCatalog vendors={vendors.data.data} canEdit={canEdit} onConnect={setConnecting} />
      )}

      <Dialog open={connecting !== null} title={`Connect ${connecting?.name ?? ''}`} onClose={() => setConnecting(null)}>
        {connecting && (
          <ConnectIntegrationForm
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

/**
 * One connected integration: its status, last and next sync, last test, what the last sync brought and
 * its last error, the outcome of a test just run, and (for an admin) test, sync, disable / enable, delete.
 */
import { type Item, type Ok } from '../../api/client';
import { Button, Facts, StatusBadge } from '../../components/ui';
import { dateTime, humanize, relative } from '../../lib/format';
import { configFieldLabel, describeCounts } from '../../lib/settings';

type Integration = Item<'/api/v1/integrations'>;
export type TestResult = Ok<'/api/v1/integrations/{integrationId}/test', 'post'>;

export interface IntegrationCardProps {
  integration: Integration;
  vendorName: string;
  result: TestResult | undefined;
  /** The action running: `test-<id>`, `sync-<id>`, … */
  busy: string | null;
  canEdit: boolean;
  onTest: (i: Integration, enable?: boolean) => void;
  onSync: (i: Integration) => void;
  onDisable: (i: Integration) => void;
  onRemove: (i: Integration) => void;
  onDismiss: () => void;
}

export function IntegrationCard({ integration: i, vendorName, result, busy, canEdit, onTest, onSync, onDisable, onRemove, onDismiss }: IntegrationCardProps) {
  const working = busy?.endsWith(i.id) ?? false;
  return (
    <li className="card integration" aria-labelledby={`int-${i.id}`}>
      <div className="integration-head">
        <div>
          <h3 id={`int-${i.id}`}>{i.name}</h3>
          <div className="muted small">
            {vendorName} · {i.category} · every {i.syncIntervalMinutes} min
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
      {result && <TestOutcome result={result} onDismiss={onDismiss} />}
      {canEdit && (
        <div className="form-actions">
          <Button busy={busy === `test-${i.id}`} disabled={working} onClick={() => onTest(i)} aria-label={`Test the connection of ${i.name}`}>
            Test connection
          </Button>
          <Button busy={busy === `sync-${i.id}`} disabled={working || i.status !== 'ACTIVE'} onClick={() => onSync(i)} aria-label={`Sync ${i.name} now`}>
            Sync now
          </Button>
          {i.status === 'DISABLED' ? (
            <Button disabled={working} onClick={() => onTest(i, true)} aria-label={`Enable ${i.name}`}>
              Enable
            </Button>
          ) : (
            <Button disabled={working} onClick={() => onDisable(i)} aria-label={`Disable ${i.name}`}>
              Disable
            </Button>
          )}
          <Button variant="danger" disabled={working} onClick={() => onRemove(i)} aria-label={`Delete ${i.name}`}>
            Delete
          </Button>
        </div>
      )}
    </li>
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

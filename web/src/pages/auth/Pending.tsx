import { useState } from 'react';
import { api, unwrap } from '../../api/client';
import { useSession } from '../../api/session';
import { useApi } from '../../lib/use-api';
import { Button } from '../../components/ui';
import { AuthFrame } from './AuthFrame';

/** A signed-in user whose organization is not (or no longer) active. */
export function PendingPage() {
  const { state, reload, logout } = useSession();
  const [busy, setBusy] = useState(false);
  const me = state.status === 'signed-in' && state.viewer.kind === 'user' ? state.viewer.me : null;
  const tenant = useApi(() => unwrap(api.GET('/api/v1/tenant')), []);
  const name = tenant.data?.name ?? 'your organization';
  const rejected = me?.tenantStatus === 'REJECTED';
  return (
    <AuthFrame title={rejected ? 'Registration not approved' : 'Waiting for approval'}>
      {rejected ? (
        <p>The registration of {name} was not approved. Contact support if you think this is a mistake.</p>
      ) : (
        <>
          <p>
            Thank you for registering <strong>{name}</strong>. A platform administrator reviews every new organization; you will be
            able to plan routes as soon as it is approved.
          </p>
          {tenant.data?.approvalHint && (
            <p className="banner banner-info" data-testid="approval-hint">
              {tenant.data.approvalHint}
            </p>
          )}
          <p className="muted">Status: pending approval</p>
        </>
      )}
      <div className="row">
        <Button
          variant="primary"
          busy={busy}
          onClick={() => {
            setBusy(true);
            void reload().finally(() => setBusy(false));
          }}
        >
          Check again
        </Button>
        <Button variant="link" onClick={() => void logout()}>
          Sign out
        </Button>
      </div>
    </AuthFrame>
  );
}

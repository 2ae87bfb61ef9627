/**
 * "Re-plan from here" on an ACTIVE route: the preview (POST /routes/{id}/replan with preview, nothing
 * changes) read on opening, an optional reason, then "Apply re-plan" (the same without preview: the new
 * plan becomes the route's next revision) or "Cancel". A refusal (no position reported, …) is said as
 * the server words it.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { api, unwrap } from '../../api/client';
import { TextArea } from '../../components/TextArea';
import { Button, ErrorBanner, Loading } from '../../components/ui';
import { replanBody, type ReplanAnswer } from '../../lib/replan';
import { useApi } from '../../lib/use-api';
import { ReplanPreview } from './ReplanPreview';

export function ReplanPanel({ planId, onApplied, onClose }: { planId: string; onApplied: (answer: ReplanAnswer) => void; onClose: () => void }) {
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [applyError, setApplyError] = useState<unknown>(null);
  const preview = useApi(() => unwrap(api.POST('/api/v1/routes/{planId}/replan', { params: { path: { planId } }, body: replanBody(true, '') })), [planId]);

  useEffect(() => heading.current?.focus(), []);

  async function apply() {
    setBusy(true);
    setApplyError(null);
    try {
      onApplied(await unwrap(api.POST('/api/v1/routes/{planId}/replan', { params: { path: { planId } }, body: replanBody(false, reason) })));
    } catch (e) {
      setApplyError(e);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card replan" aria-labelledby={headingId}>
      <h2 id={headingId} ref={heading} tabIndex={-1}>
        Re-plan from here
      </h2>
      <p className="muted small">
        The stops not yet completed, planned again from the truck’s last reported position with the driver’s clocks now. Nothing changes until you apply it; the current plan is kept as a revision.
      </p>
      {preview.error ? (
        <ErrorBanner error={preview.error} />
      ) : !preview.data ? (
        <Loading label="Planning the preview…" />
      ) : (
        <>
          {preview.loading && <Loading label="Planning the preview again…" />}
          <ReplanPreview answer={preview.data} />
        </>
      )}
      <TextArea label="Reason (optional)" rows={2} maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} hint="Kept with the revision and sent with the route.replanned event" />
      <ErrorBanner error={applyError} />
      <div className="form-actions">
        <Button variant="primary" onClick={() => void apply()} busy={busy} disabled={!preview.data || Boolean(preview.error)}>
          Apply re-plan
        </Button>
        <Button onClick={preview.reload} disabled={busy || preview.loading}>
          Preview again
        </Button>
        <Button onClick={onClose} disabled={busy}>
          Cancel
        </Button>
      </div>
    </section>
  );
}

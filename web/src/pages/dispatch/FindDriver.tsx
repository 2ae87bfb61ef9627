/**
 * "Find a driver" (on a load's page and in the plan form): every active driver's trip for the load,
 * planned from where they are with the clocks they have (POST /dispatch/candidates), ranked feasible
 * first; "Plan with this driver" plans it (POST /routes/plan with the candidate's own request) and opens
 * the new route.
 */
import { useState } from 'react';
import { useLocation } from 'wouter';
import { api, unwrap } from '../../api/client';
import { useRoleAtLeast } from '../../api/session';
import { Button, ErrorBanner, Notice } from '../../components/ui';
import { candidatesSummary, planRequestFor, type Candidate, type CandidatesAnswer, type DraftCandidates } from '../../lib/dispatch';
import { CandidatesTable } from './CandidatesTable';
import './dispatch.css';

export function FindDriver({
  request,
  planExtra = {},
  onInvalid,
}: {
  /** The candidates request, made when the button is pressed (or what to fix first). */
  request: () => DraftCandidates;
  /** Added to the chosen candidate's plan request (the form's vehicle, its load). */
  planExtra?: { vehicleId?: string; loadId?: string };
  /** Told the form's fields to fix before the drivers can be ranked (none: every field is fine). */
  onInvalid?: (errors: Record<string, string>) => void;
}) {
  const [, navigate] = useLocation();
  const canPlan = useRoleAtLeast('DISPATCHER');
  const [answer, setAnswer] = useState<CandidatesAnswer | null>(null);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [planning, setPlanning] = useState<string | null>(null);

  async function find() {
    setMessage(null);
    setError(null);
    const built = request();
    // The fields to fix are marked (or unmarked once fixed).
    onInvalid?.(built.errors);
    if (!built.body) {
      setMessage(built.message ?? 'Nothing to rank the drivers for.');
      return;
    }
    setBusy(true);
    try {
      setAnswer(await unwrap(api.POST('/api/v1/dispatch/candidates', { body: built.body })));
    } catch (e) {
      setAnswer(null);
      setError(e);
    } finally {
      setBusy(false);
    }
  }

  async function plan(c: Candidate) {
    const body = planRequestFor(c, planExtra);
    if (!body) return;
    setPlanning(c.driverId);
    setError(null);
    try {
      const route = await unwrap(api.POST('/api/v1/routes/plan', { body }));
      navigate(`/routes/${route.id}`);
    } catch (e) {
      setError(e);
      setPlanning(null);
    }
  }

  return (
    <div className="find-driver">
      <div className="form-actions">
        <Button onClick={() => void find()} busy={busy}>
          {busy ? 'Ranking the drivers…' : answer ? 'Find a driver again' : 'Find a driver'}
        </Button>
      </div>
      {message && <Notice tone="warning">{message}</Notice>}
      <ErrorBanner error={error} />
      {answer && (
        <>
          <p className="candidates-summary" role="status">
            {candidatesSummary(answer.data)}
          </p>
          {answer.data.length > 0 && <CandidatesTable candidates={answer.data} canPlan={canPlan} planning={planning} onPlan={(c) => void plan(c)} />}
        </>
      )}
    </div>
  );
}

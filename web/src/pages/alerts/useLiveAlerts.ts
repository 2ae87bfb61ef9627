/**
 * The alerts feed kept live: a new alert goes on top (once, highlighted for a moment and announced to
 * screen readers) or counts as "arrived elsewhere" when another page would show it; updates and
 * resolutions change their rows (a row the page does not hold reloads the list); after the connection
 * comes back the list is read again. `replaceRow` puts an alert an action answered in its row.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Ok } from '../../api/client';
import { useRealtime } from '../../api/realtime';
import { ALERTS_CHANGED } from '../../lib/alert-badge';
import { addNewAlert, alertFromEvent, announcement, applyChange, type AlertFilters, type AlertRow } from '../../lib/alert-feed';
import type { Loaded } from '../../lib/use-api';
import { useDebounced, useOnReconnect } from '../../lib/use-live';

const FRESH_MS = 8_000;

type AlertList = Ok<'/api/v1/alerts'>;

export function useLiveAlerts(list: Loaded<AlertList>, view: { filters: AlertFilters; page: number; pageSize: number; listKey: string; selectedId: string | null }) {
  const { filters, page, pageSize, listKey, selectedId } = view;
  // The latest list and filters, read by the event handlers (which stay the same functions).
  const latest = useRef({ data: list.data, filters, page });
  latest.current = { data: list.data, filters, page };
  const [fresh, setFresh] = useState<ReadonlySet<string>>(new Set());
  const [said, setSaid] = useState('');
  const [elsewhere, setElsewhere] = useState(0);
  const [panelVersion, setPanelVersion] = useState(0);
  const reloadSoon = useDebounced(list.reload, 300);
  const latestSelected = useRef(selectedId);
  latestSelected.current = selectedId;

  useEffect(() => setElsewhere(0), [listKey]);

  const show = useCallback(
    (next: AlertList) => {
      // Events can come faster than React renders: the next one must see this one's result.
      latest.current = { ...latest.current, data: next };
      list.setData(() => next);
    },
    [list],
  );

  const onNew = useCallback(
    (payload: unknown) => {
      const alert = alertFromEvent(payload);
      const { data, filters: f, page: p } = latest.current;
      if (!alert || !data) return;
      const { feed, outcome } = addNewAlert({ rows: data.data, total: data.total }, alert, f, p, pageSize);
      if (outcome === 'duplicate' || outcome === 'filtered') return;
      show({ ...data, data: feed.rows, total: feed.total });
      setSaid(announcement(alert));
      if (outcome === 'other-page') return setElsewhere((n) => n + 1);
      setFresh((s) => new Set(s).add(alert.id));
      setTimeout(
        () =>
          setFresh((s) => {
            const next = new Set(s);
            next.delete(alert.id);
            return next;
          }),
        FRESH_MS,
      );
    },
    [show, pageSize],
  );

  const onChange = useCallback(
    (payload: Record<string, unknown>) => {
      const { data, filters: f } = latest.current;
      if (!data) return;
      const { feed, missing } = applyChange({ rows: data.data, total: data.total }, payload, f);
      if (missing) reloadSoon();
      else if (feed.rows !== data.data) show({ ...data, data: feed.rows });
      if (payload.id === latestSelected.current) setPanelVersion((v) => v + 1);
    },
    [show, reloadSoon],
  );

  useRealtime('alert:new', onNew);
  useRealtime('alert:updated', onChange);
  useRealtime('alert:resolved', onChange);
  useOnReconnect(list.reload);

  const replaceRow = useCallback(
    (updated: AlertRow) => {
      const data = latest.current.data;
      if (data) show({ ...data, data: data.data.map((r) => (r.id === updated.id ? { ...r, ...updated } : r)) });
      setPanelVersion((v) => v + 1);
      window.dispatchEvent(new Event(ALERTS_CHANGED));
    },
    [show],
  );

  return { fresh, said, elsewhere, panelVersion, replaceRow };
}

/** The snooze and resolve dialogs' forms of an alert. */
import { useState } from 'react';
import { TextArea } from '../../components/TextArea';
import { Button, SelectField } from '../../components/ui';
import { SNOOZE_CHOICES, type AlertRow } from '../../lib/alert-feed';

export function SnoozeForm({ alert, busy, onSnooze, onCancel }: { alert: AlertRow; busy: boolean; onSnooze: (minutes: number) => void; onCancel: () => void }) {
  const [minutes, setMinutes] = useState(60);
  return (
    <form
      className="stack"
      onSubmit={(e) => {
        e.preventDefault();
        onSnooze(minutes);
      }}
    >
      <p>
        <strong>{alert.title}</strong> will be set aside and become active again when the time is up if its condition still holds. Monitoring does not raise it again meanwhile.
      </p>
      <SelectField label="Snooze for" value={String(minutes)} onChange={(e) => setMinutes(Number(e.target.value))} options={SNOOZE_CHOICES.map((c) => ({ value: String(c.minutes), label: c.label }))} />
      <div className="dialog-actions">
        <Button onClick={onCancel}>Cancel</Button>
        <Button type="submit" variant="primary" busy={busy}>
          Snooze
        </Button>
      </div>
    </form>
  );
}

export function ResolveForm({ alert, busy, onResolve, onCancel }: { alert: AlertRow; busy: boolean; onResolve: (resolution: string) => void; onCancel: () => void }) {
  const [text, setText] = useState('');
  return (
    <form
      className="stack"
      onSubmit={(e) => {
        e.preventDefault();
        onResolve(text.trim());
      }}
    >
      <p>
        Resolve <strong>{alert.title}</strong>? A resolved alert is closed: it cannot be acknowledged or snoozed any more.
      </p>
      <TextArea label="Resolution" hint="Optional: what was done (kept with the alert)." maxLength={2000} value={text} onChange={(e) => setText(e.target.value)} rows={3} />
      <div className="dialog-actions">
        <Button onClick={onCancel}>Cancel</Button>
        <Button type="submit" variant="danger" busy={busy}>
          Resolve alert
        </Button>
      </div>
    </form>
  );
}

/**
 * Pieces the settings tabs and the platform admin page share: a confirmation dialog (optionally asking
 * for a reason), a dialog that shows a secret once with a copy button, and a small hook for actions
 * that report success or the server's error.
 */
import { useCallback, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Button, Dialog, ErrorBanner, Notice } from '../../components/ui';
import './common.css';

export interface ConfirmRequest {
  title: string;
  message: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  /** Ask for a reason (optional text sent with the action). */
  reasonLabel?: string;
  run: (reason: string | undefined) => Promise<unknown>;
}

/** Holds at most one pending confirmation; `confirm(request)` opens it. Render `dialog` once. */
export function useConfirm(): { confirm: (r: ConfirmRequest) => void; dialog: ReactNode } {
  const [request, setRequest] = useState<ConfirmRequest | null>(null);
  const close = useCallback(() => setRequest(null), []);
  return { confirm: setRequest, dialog: <ConfirmDialog request={request} onClose={close} /> };
}

function ConfirmDialog({ request, onClose }: { request: ConfirmRequest | null; onClose: () => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const reasonId = useId();

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (!request) return;
    const reason = String(new FormData(e.currentTarget).get('reason') ?? '').trim();
    setBusy(true);
    setError(null);
    try {
      await request.run(reason || undefined);
      setBusy(false);
      onClose();
    } catch (err) {
      setBusy(false);
      setError(err);
    }
  }

  return (
    <Dialog
      open={request !== null}
      title={request?.title ?? ''}
      onClose={() => {
        setError(null);
        onClose();
      }}
    >
      {request && (
        <form onSubmit={submit} className="stack">
          <div>{request.message}</div>
          {request.reasonLabel && (
            <div className="field">
              <label htmlFor={reasonId}>{request.reasonLabel}</label>
              <textarea id={reasonId} name="reason" rows={3} maxLength={1000} />
            </div>
          )}
          <ErrorBanner error={error} />
          <div className="dialog-actions">
            <Button
              onClick={() => {
                setError(null);
                onClose();
              }}
            >
              Cancel
            </Button>
            <Button type="submit" variant={request.danger ? 'danger' : 'primary'} busy={busy}>
              {request.confirmLabel}
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}

/** Copies text; falls back to selecting it in `input` when the Clipboard API is refused. */
async function copyText(text: string, input: HTMLInputElement | null): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (!input) return false;
    input.select();
    try {
      return document.execCommand('copy');
    } catch {
      return false;
    }
  }
}

/** A secret the server shows once (an API key, a signing secret): read-only field, copy button, warning. */
export function ShownOnceDialog({ secret, title, label, children, onClose }: { secret: string | null; title: string; label: string; children?: ReactNode; onClose: () => void }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  return (
    <Dialog
      open={secret !== null}
      title={title}
      onClose={() => {
        setCopied(null);
        onClose();
      }}
    >
      {secret !== null && (
        <div className="stack">
          <Notice tone="warning">
            <strong>Copy it now: it will not be shown again.</strong> Store it somewhere safe; if it is lost, create a new one.
          </Notice>
          {children}
          <div className="field">
            <label htmlFor={id}>{label}</label>
            <div className="secret-row">
              <input id={id} ref={input} className="secret-value" readOnly value={secret} onFocus={(e) => e.currentTarget.select()} />
              <Button
                onClick={() => {
                  void copyText(secret, input.current).then((ok) => setCopied(ok ? 'yes' : 'no'));
                }}
              >
                Copy
              </Button>
            </div>
            <small className="hint" role="status" aria-live="polite">
              {copied === 'yes' ? 'Copied to the clipboard.' : copied === 'no' ? 'Could not copy: the text is selected, press Ctrl+C.' : ''}
            </small>
          </div>
          <div className="dialog-actions">
            <Button
              variant="primary"
              onClick={() => {
                setCopied(null);
                onClose();
              }}
            >
              I have copied it
            </Button>
          </div>
        </div>
      )}
    </Dialog>
  );
}

/** Runs actions one at a time per key, keeping the last success message and the last error. */
export function useActions() {
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [notice, setNoticeState] = useState<{ text: string; tone: 'success' | 'warning' } | null>(null);
  /** A message after an action; 'warning' when it ran but did not go as hoped (a failed ping). */
  const setNotice = useCallback((text: string | null, tone: 'success' | 'warning' = 'success') => setNoticeState(text === null ? null : { text, tone }), []);
  const run = useCallback(async (key: string, action: () => Promise<unknown>, success?: string) => {
    setBusy(key);
    setError(null);
    setNotice(null);
    try {
      await action();
      if (success) setNotice(success);
      return true;
    } catch (err) {
      setError(err);
      return false;
    } finally {
      setBusy(null);
    }
  }, [setNotice]);
  const feedback = (
    <>
      <ErrorBanner error={error} />
      {notice && <Notice tone={notice.tone}>{notice.text}</Notice>}
    </>
  );
  return { busy, run, feedback, setNotice, setError };
}

/** Shown instead of the controls to users who may look but not change. */
export function ReadOnlyNote({ what }: { what: string }) {
  return <Notice>Only an owner or administrator can change {what}. You can see them here.</Notice>;
}

import { ALERT_TIMEOUT_MS } from '@ros/domain';
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useT } from './translate';

export type AlertType = 'success' | 'info' | 'warning' | 'danger';

export interface AlertOptions {
  type: AlertType;
  /** i18n key of the text, e.g. 'ALERTS.FORM_INVALID'. */
  key: string;
  /**
   * Milliseconds until the alert closes itself; 0 = stays until closed. Default: 5000 for a
   * confirmation that needs nothing (success, info), 0 for a message the person must act on
   * (warning, danger): WCAG 2.2.1 prevails over the spec's 5 s (docs/accessibility.md).
   */
  timeout?: number;
  /** Interpolation values for the text. */
  values?: Record<string, unknown>;
}

export interface Alert extends AlertOptions {
  id: number;
}

interface AlertsApi {
  alerts: readonly Alert[];
  show: (options: AlertOptions) => number;
  dismiss: (id: number) => void;
  clear: () => void;
}

/** A warning or an error asks something of the person: it never closes itself. */
const needsAction = (type: AlertType) => type === 'warning' || type === 'danger';

const AlertsContext = createContext<AlertsApi | null>(null);

export function AlertsProvider({ children }: { children: ReactNode }) {
  const [alerts, setAlerts] = useState<readonly Alert[]>([]);
  const nextId = useRef(1);
  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>>());

  const dismiss = useCallback((id: number) => {
    const timer = timers.current.get(id);
    if (timer !== undefined) clearTimeout(timer);
    timers.current.delete(id);
    setAlerts((list) => list.filter((alert) => alert.id !== id));
  }, []);

  const show = useCallback(
    (options: AlertOptions) => {
      const id = nextId.current++;
      const timeout = options.timeout ?? (needsAction(options.type) ? 0 : ALERT_TIMEOUT_MS);
      // The same message shown again replaces the old one instead of stacking up.
      setAlerts((list) => [
        ...list.filter((alert) => !(alert.key === options.key && alert.type === options.type)),
        { ...options, id },
      ]);
      if (timeout > 0)
        timers.current.set(
          id,
          setTimeout(() => dismiss(id), timeout),
        );
      return id;
    },
    [dismiss],
  );

  const clear = useCallback(() => {
    for (const timer of timers.current.values()) clearTimeout(timer);
    timers.current.clear();
    // Unchanged when there is nothing to clear: no re-render of every page that uses alerts at
    // each route's start (issue 29: one long task on a slow phone, right after the first paint).
    setAlerts((list) => (list.length === 0 ? list : []));
  }, []);

  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const timer of pending.values()) clearTimeout(timer);
    };
  }, []);

  const value = useMemo(() => ({ alerts, show, dismiss, clear }), [alerts, show, dismiss, clear]);
  return <AlertsContext.Provider value={value}>{children}</AlertsContext.Provider>;
}

/** `show({ type, key, timeout?, values? })` returns the alert's id; `dismiss(id)` closes it. */
export function useAlerts(): AlertsApi {
  const context = useContext(AlertsContext);
  if (!context) throw new Error('useAlerts must be used inside <AlertsProvider>');
  return context;
}

function AlertItem({
  alert,
  onDismiss,
  testId,
  action,
}: {
  alert: Alert;
  /** Without it the message has no close button (it goes when its cause is gone). */
  onDismiss?: () => void;
  testId?: string;
  action?: ReactNode;
}) {
  const { t } = useT();
  return (
    <div className={`alert alert--${alert.type}`} data-alert-key={alert.key} data-testid={testId}>
      <span className="alert__icon" aria-hidden="true" />
      {action ? (
        <div className="alert__body">
          <p className="alert__text">{t(alert.key, alert.values)}</p>
          {action}
        </div>
      ) : (
        <p className="alert__text">{t(alert.key, alert.values)}</p>
      )}
      {onDismiss && (
        <button
          type="button"
          className="alert__close"
          onClick={onDismiss}
          aria-label={t('SHELL.ALERT_CLOSE')}
        />
      )}
    </div>
  );
}

/** A message of an inline region: its look and its text (an i18n key with its values). */
export interface InlineText {
  type: AlertType;
  key: string;
  values?: Record<string, unknown>;
}

/**
 * The one pattern for a message that answers what the person just did, shown next to the control
 * that caused it instead of at the top of the page (issue 27: at 400 % zoom the top is far out of
 * view). The live region (role alert) is in the page before its text, so the text is read out
 * when it arrives (issue 35: a region added with its text was not); focus stays on the control
 * (or goes to the box the message asks to fill in, which does not repeat the message). Render it
 * while there is no message too: a region put in with its text is not read.
 * The message stays until closed or replaced by the next attempt; closing it puts focus on
 * `focusAfter` (the control it answers), not on the page's body. Without `onDismiss` it has no
 * close button: it goes when its cause is gone (a list that loads after `action`'s "Try again").
 *
 * A message that must be read before anything else (the status page's answer, the form's error
 * summary and notice, the sign-in's cards, the validity form's error) takes focus instead: it is
 * named by its words or its heading, and is not a live region, so it is read once, on focus.
 */
export function InlineMessage({
  message,
  onDismiss,
  focusAfter,
  action,
  testId,
  className,
}: {
  message: InlineText | null;
  onDismiss?: () => void;
  focusAfter?: () => HTMLElement | null;
  /** A way on inside the message (a "Try again" button); its text is read with the message. */
  action?: ReactNode;
  /** On the message (present only while there is one), not on the region. */
  testId?: string;
  className?: string;
}) {
  return (
    // Its attributes never change (a screen reader may read a region again when they do).
    <div role="alert" className={className ? `inline-message ${className}` : 'inline-message'}>
      {message && (
        <AlertItem
          alert={{ id: 0, ...message }}
          testId={testId}
          action={action}
          onDismiss={
            onDismiss &&
            (() => {
              onDismiss();
              focusAfter?.()?.focus();
            })
          }
        />
      )}
    </div>
  );
}

/**
 * The alert list at the top of the main content. Two live regions exist from the start
 * (screen readers only announce changes in regions already on the page): errors are
 * announced at once, everything else politely.
 */
export function AlertList() {
  const { alerts, dismiss } = useAlerts();
  const urgent = alerts.filter((alert) => alert.type === 'danger');
  const polite = alerts.filter((alert) => alert.type !== 'danger');
  return (
    <div className="alert-list">
      <div role="alert" aria-live="assertive" aria-atomic="false" className="alert-list__region">
        {urgent.map((alert) => (
          <AlertItem key={alert.id} alert={alert} onDismiss={() => dismiss(alert.id)} />
        ))}
      </div>
      <div role="status" aria-live="polite" aria-atomic="false" className="alert-list__region">
        {polite.map((alert) => (
          <AlertItem key={alert.id} alert={alert} onDismiss={() => dismiss(alert.id)} />
        ))}
      </div>
    </div>
  );
}

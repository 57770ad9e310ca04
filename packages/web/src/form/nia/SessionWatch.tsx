import { useEffect, useRef, useState } from 'react';
import { extendSsoSession, type SsoSessionTime } from '../../api/sso';
import { Button } from '../../components/Button';
import { Dialog } from '../../components/Dialog';
import { ssoRedirectUrl } from '../../home/choices';
import { useLang } from '../../shell/lang';
import { useT } from '../../shell/translate';
import { leaveKeepingDraft } from '../leaveGuard';

/**
 * - running: nothing shown; `dismissed`: the warning was closed (or cannot come again), only the
 *   end is awaited;
 * - warning: the session ends in `warn_before` seconds or less;
 * - ended: the session has ended (its time ran out, or the server refused a send: SESSION_EXPIRED).
 */
type Phase = 'running' | 'dismissed' | 'warning' | 'ended';

/**
 * Watches the NIA sign-in's time (WCAG 2.2.1 Timing adjustable, issue 27, docs/nia.md "The
 * session's end"). Before the end (2 minutes, `warn_before` of the server) an alert dialog says
 * so and offers more time (POST sso-session/extend; the form and its draft stay as they are). Once
 * ended, the person chooses: sign in again (the draft in this tab comes back after the sign-in)
 * or go on without the sign-in, on paper. The channel never changes without that choice.
 */
export function SessionWatch({
  time,
  duplicate,
  endedSignal,
  onPaper,
}: {
  time: SsoSessionTime;
  duplicate: boolean;
  /** Counts the sends the server refused because the session had ended. */
  endedSignal: number;
  /** The person chose to go on without the sign-in (print, sign and post). */
  onPaper: () => void;
}) {
  const { t } = useT();
  const lang = useLang();
  const [deadline, setDeadline] = useState(() => Date.now() + time.expires_in * 1000);
  const [extendable, setExtendable] = useState(time.extendable);
  const [phase, setPhase] = useState<Phase>('running');
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState('');
  const warnBefore = time.warn_before * 1000;

  useEffect(() => {
    if (phase === 'ended') return;
    const now = Date.now();
    const timers = [setTimeout(() => setPhase('ended'), Math.max(0, deadline - now))];
    if (phase === 'running') {
      timers.push(setTimeout(() => setPhase('warning'), Math.max(0, deadline - warnBefore - now)));
    }
    return () => {
      for (const timer of timers) clearTimeout(timer);
    };
  }, [deadline, phase, warnBefore]);

  useEffect(() => {
    if (endedSignal > 0) setPhase('ended');
  }, [endedSignal]);

  const open = phase === 'warning' || phase === 'ended';

  const clock = (at: number) =>
    new Date(at).toLocaleTimeString(lang === 'en' ? 'en-GB' : 'cs-CZ', {
      hour: '2-digit',
      minute: '2-digit',
    });

  const extend = async () => {
    if (busy) return;
    setBusy(true);
    setFailed(false);
    try {
      const next = await extendSsoSession();
      if (!next) {
        setPhase('ended');
        return;
      }
      const end = Date.now() + next.expires_in * 1000;
      setDeadline(end);
      setExtendable(next.extendable);
      // At the maximum lifetime less than the warning's time may be left: no second warning then.
      setPhase(next.expires_in * 1000 > warnBefore ? 'running' : 'dismissed');
      // The dialog closes; focus goes back where it was (components/Dialog.tsx).
      setStatus(t('FORM.NIA.SESSION.EXTENDED', { time: clock(end) }));
    } catch {
      setFailed(true);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <p className="visually-hidden" role="status" data-testid="session-status">
        {status}
      </p>
      {open && (
        <SessionDialog
          key={phase}
          ended={phase === 'ended'}
          title={t(phase === 'ended' ? 'FORM.NIA.SESSION.ENDED_TITLE' : 'FORM.NIA.SESSION.WARN_TITLE')}
          text={
            phase === 'ended'
              ? [t('FORM.NIA.SESSION.ENDED_TEXT'), t('FORM.NIA.SESSION.ENDED_CHOOSE')]
              : [
                  t('FORM.NIA.SESSION.WARN_TEXT', { time: clock(deadline) }),
                  t(extendable ? 'FORM.NIA.SESSION.WARN_EXTEND' : 'FORM.NIA.SESSION.WARN_CANNOT_EXTEND'),
                ]
          }
          failed={failed}
          busy={busy}
          extendable={extendable}
          onExtend={() => void extend()}
          onSignIn={() => leaveKeepingDraft(ssoRedirectUrl(lang, duplicate))}
          onClose={() => setPhase('dismissed')}
          onPaper={onPaper}
        />
      )}
    </>
  );
}

function SessionDialog({
  ended,
  title,
  text,
  failed,
  busy,
  extendable,
  onExtend,
  onSignIn,
  onClose,
  onPaper,
}: {
  ended: boolean;
  title: string;
  text: string[];
  failed: boolean;
  busy: boolean;
  extendable: boolean;
  onExtend: () => void;
  onSignIn: () => void;
  onClose: () => void;
  onPaper: () => void;
}) {
  const { t } = useT();
  const first = useRef<HTMLButtonElement>(null);
  const signInAgain = (
    <Button ref={first} onClick={onSignIn} data-testid="session-sign-in">
      {t('FORM.NIA.SESSION.SIGN_IN_AGAIN')}
    </Button>
  );
  return (
    <Dialog
      role="alertdialog"
      // Above every dialog of the page, also the confirmation dialog open before it (issue 35).
      layer="session"
      title={title}
      text={text.map((p) => <p key={p}>{p}</p>)}
      // An ended session needs a choice: Escape does not close it.
      onCancel={ended ? undefined : onClose}
      initialFocus={first}
      // Back where focus was; when that is gone (a send refused), to the finish button.
      returnFocus={{ to: () => document.getElementById('finish') }}
      testId="session-dialog"
      attrs={{ 'data-phase': ended ? 'ended' : 'warning' }}
      actions={
        ended ? (
          <>
            {signInAgain}
            <Button variant="outlined" onClick={onPaper} data-testid="session-paper">
              {t('FORM.NIA.SESSION.PAPER')}
            </Button>
          </>
        ) : (
          <>
            {extendable ? (
              <Button
                ref={first}
                onClick={onExtend}
                aria-disabled={busy || undefined}
                data-testid="session-extend"
              >
                {t(busy ? 'FORM.NIA.SESSION.EXTENDING' : 'FORM.NIA.SESSION.EXTEND')}
              </Button>
            ) : (
              signInAgain
            )}
            <Button variant="outlined" onClick={onClose} data-testid="session-close">
              {t('FORM.NIA.SESSION.CLOSE')}
            </Button>
          </>
        )
      }
    >
      {/* In the dialog from the start, so that the failure is read out when it arrives. */}
      <div role="alert">
        {failed && <p className="field__error">{t('FORM.NIA.SESSION.EXTEND_FAILED')}</p>}
      </div>
    </Dialog>
  );
}

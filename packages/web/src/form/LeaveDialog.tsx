import { type KeyboardEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Blocker } from 'react-router';
import { Button, buttonClass } from '../components/Button';
import { LeaveGuardContext } from './leaveGuard';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * "Leave the form?" (an alert dialog, like Modal.tsx): focus moves in to Stay (the safe
 * choice), Tab stays inside, Escape and Stay keep the user on the form, and focus returns to
 * where it was (the link they followed).
 */
export function LeaveDialog({ onStay, onLeave }: { onStay: () => void; onLeave: () => void }) {
  const { t } = useTranslation();
  const uid = useId().replace(/:/g, '');
  const ref = useRef<HTMLDivElement>(null);
  const stayRef = useRef<HTMLButtonElement>(null);
  const stay = useRef(onStay);
  stay.current = onStay;

  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    stayRef.current?.focus();
    const { overflow } = document.body.style;
    document.body.style.overflow = 'hidden';
    return () => {
      document.body.style.overflow = overflow;
      if (previous?.isConnected) previous.focus();
    };
  }, []);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'Escape') {
      e.stopPropagation();
      stay.current();
      return;
    }
    if (e.key !== 'Tab' || !ref.current) return;
    const items = [...ref.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const first = items[0];
    const last = items[items.length - 1];
    if (!first || !last) return;
    if (e.shiftKey && (document.activeElement === first || !ref.current.contains(document.activeElement))) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first.focus();
    }
  };

  return (
    <div className="modal-backdrop">
      <div
        ref={ref}
        className="modal"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={`${uid}-title`}
        aria-describedby={`${uid}-text`}
        onKeyDown={onKeyDown}
        data-testid="leave-dialog"
      >
        <h2 id={`${uid}-title`} className="modal__title">
          {t('FORM.LEAVE.TITLE')}
        </h2>
        <p id={`${uid}-text`}>{t('FORM.LEAVE.TEXT')}</p>
        <div className="modal__actions" style={{ gap: '0.75rem', flexWrap: 'wrap' }}>
          <button
            ref={stayRef}
            type="button"
            className={buttonClass('primary')}
            onClick={() => stay.current()}
            data-testid="leave-stay"
          >
            {t('FORM.LEAVE.STAY')}
          </button>
          <Button variant="outlined" onClick={onLeave} data-testid="leave-confirm">
            {t('FORM.LEAVE.LEAVE')}
          </Button>
        </div>
      </div>
    </div>
  );
}

/** Hosts the leave question of a form inside it (see useLeaveGuard) and renders the dialog. */
export function LeaveGuardHost({ children }: { children: ReactNode }) {
  const [blocker, setBlocker] = useState<Blocker | null>(null);
  return (
    <LeaveGuardContext.Provider value={setBlocker}>
      {children}
      {blocker && <LeaveDialog onStay={() => blocker.reset?.()} onLeave={() => blocker.proceed?.()} />}
    </LeaveGuardContext.Provider>
  );
}

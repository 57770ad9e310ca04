import { type ReactNode, useId, useRef, useState } from 'react';
import { Button, buttonClass } from '../components/Button';
import type { PendingNavigation } from '../shell/history';
import { useT } from '../shell/translate';
import { LeaveGuardContext } from './leaveGuard';
import { useDialogFocus } from './useDialogFocus';

/**
 * "Leave the form?", an alert dialog (focus handling shared with Modal.tsx in useDialogFocus):
 * focus moves in to Stay (the safe choice), Tab stays inside, Escape and Stay keep the user on
 * the form, and focus returns to where it was (the link they followed).
 */
export function LeaveDialog({ onStay, onLeave }: { onStay: () => void; onLeave: () => void }) {
  const { t } = useT();
  const uid = useId().replace(/:/g, '');
  const stayRef = useRef<HTMLButtonElement>(null);
  const { ref, onKeyDown } = useDialogFocus(onStay, { initialFocus: stayRef });

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
            onClick={() => onStay()}
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
  const [blocker, setBlocker] = useState<PendingNavigation | null>(null);
  return (
    <LeaveGuardContext.Provider value={setBlocker}>
      {children}
      {blocker && <LeaveDialog onStay={() => blocker.reset()} onLeave={() => blocker.proceed()} />}
    </LeaveGuardContext.Provider>
  );
}

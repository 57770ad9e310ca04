import { type ReactNode, useRef, useState } from 'react';
import { Button, buttonClass } from '../components/Button';
import { Dialog } from '../components/Dialog';
import type { PendingNavigation } from '../shell/history';
import { useT } from '../shell/translate';
import { LeaveGuardContext } from './leaveGuard';
import { niaSignedIn, signOutAtNia } from './nia/niaSignOut';

/**
 * "Leave the form?", an alert dialog (components/Dialog.tsx):
 * focus moves in to Stay (the safe choice), Tab stays inside, Escape and Stay keep the user on
 * the form, and focus returns to where it was (the link they followed).
 */
export function LeaveDialog({ onStay, onLeave }: { onStay: () => void; onLeave: () => void }) {
  const { t } = useT();
  const stayRef = useRef<HTMLButtonElement>(null);
  return (
    <Dialog
      role="alertdialog"
      title={t('FORM.LEAVE.TITLE')}
      text={<p>{t('FORM.LEAVE.TEXT')}</p>}
      onCancel={onStay}
      initialFocus={stayRef}
      testId="leave-dialog"
      actions={
        <>
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
        </>
      }
    />
  );
}

/** Hosts the leave question of a form inside it (see useLeaveGuard) and renders the dialog. */
export function LeaveGuardHost({ children }: { children: ReactNode }) {
  const [blocker, setBlocker] = useState<PendingNavigation | null>(null);
  return (
    <LeaveGuardContext.Provider value={setBlocker}>
      {children}
      {blocker && (
        <LeaveDialog
          onStay={() => blocker.reset()}
          // Signed in through NIA: leaving signs out there too (nia/niaSignOut.ts).
          onLeave={() => (niaSignedIn() ? signOutAtNia() : blocker.proceed())}
        />
      )}
    </LeaveGuardContext.Provider>
  );
}

import { createContext, useContext, useEffect } from 'react';
import { type PendingNavigation, useNavigationGuard } from '../shell/history';

/**
 * Shows (a blocked navigation) or hides (null) the leave question. Provided by
 * `<LeaveGuardHost>` (LeaveDialog.tsx), which renders the dialog: the hook below lives in the
 * form, which cannot render outside itself.
 */
export type AskToLeave = (pending: PendingNavigation | null) => void;
export const LeaveGuardContext = createContext<AskToLeave | null>(null);

/** The screen a location shows: path and query without `lang` (the language switch keeps it). */
function screenOf(location: { pathname: string; search: string }): string {
  const params = new URLSearchParams(location.search);
  params.delete('lang');
  params.sort();
  return `${location.pathname}?${params.toString()}`;
}

/** True when going from one location to the other changes the screen (not just the language or hash). */
export function leavesScreen(
  from: { pathname: string; search: string },
  to: { pathname: string; search: string },
): boolean {
  return screenOf(from) !== screenOf(to);
}

let keepingDraft = false;

/**
 * Leaves the page for `url` without the browser's question: the draft stays in this tab and comes
 * back on return (signing in again after the NIA session ended, nia/SessionWatch.tsx).
 */
export function leaveKeepingDraft(url: string): void {
  keepingDraft = true;
  window.location.assign(url);
}

/**
 * Asks before the user leaves the form with input they typed (`dirty`):
 * - closing or reloading the tab, or leaving for another site: the browser's own question
 *   (beforeunload);
 * - in-app navigation (links, Back/Forward inside the app) to another screen: our dialog,
 *   through the app's guarded history (shell/history.tsx), shown by the nearest
 *   `<LeaveGuardHost>` (none: no question).
 * A language switch keeps the screen and the draft, so it does not ask.
 */
export function useLeaveGuard(dirty: boolean): void {
  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      if (keepingDraft) return;
      e.preventDefault();
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty]);

  const ask = useContext(LeaveGuardContext);
  const guard = useNavigationGuard();
  useEffect(() => {
    if (!dirty || !ask || !guard) return;
    return guard.block((from, to, pending) => {
      if (!leavesScreen(from, to)) return false;
      ask({
        proceed: () => {
          ask(null);
          pending.proceed();
        },
        reset: () => {
          ask(null);
          pending.reset();
        },
      });
      return true;
    });
  }, [dirty, ask, guard]);
  // The form went away (sent, started over): no question may stay open.
  useEffect(() => () => ask?.(null), [ask]);
}

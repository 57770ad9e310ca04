import { createContext, useCallback, useContext, useEffect } from 'react';
import { type Blocker, type BlockerFunction, useBlocker } from 'react-router';

/**
 * Shows (a blocked navigation) or hides (null) the leave question. Provided by
 * `<LeaveGuardHost>` (LeaveDialog.tsx), which renders the dialog: the hook below lives in the
 * form, which cannot render outside itself.
 */
export type AskToLeave = (blocker: Blocker | null) => void;
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

/**
 * Asks before the user leaves the form with input they typed (`dirty`):
 * - closing or reloading the tab, or leaving for another site: the browser's own question
 *   (beforeunload);
 * - in-app navigation (links, Back/Forward inside the app) to another screen: our dialog,
 *   through react-router's blocker, shown by the nearest `<LeaveGuardHost>` (none: no question).
 * A language switch keeps the screen and the draft, so it does not ask.
 */
export function useLeaveGuard(dirty: boolean): void {
  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty]);

  const ask = useContext(LeaveGuardContext);
  const active = dirty && ask !== null;
  const shouldBlock = useCallback<BlockerFunction>(
    ({ currentLocation, nextLocation }) => active && leavesScreen(currentLocation, nextLocation),
    [active],
  );
  const blocker = useBlocker(shouldBlock);
  useEffect(() => {
    ask?.(blocker.state === 'blocked' ? blocker : null);
  }, [ask, blocker]);
  // The form went away (sent, started over): no question may stay open.
  useEffect(() => () => ask?.(null), [ask]);
}

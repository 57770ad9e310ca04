import { useEffect } from 'react';
import { useNavigationGuard } from '../../shell/history';
import { type Lang, withLang } from '../../shell/lang';
import { clearDraft } from '../draft';
import { leaveKeepingDraft } from '../leaveGuard';

/**
 * Signing out at NIA when a signed-in person leaves the form without sending it (issue 23,
 * docs/nia.md "Signing out at NIA"): the leave question's Leave, and going home (the logo, a
 * home link, Back to the home page) while the form holds an active sign-in, go through
 * `/api/ros/sso-logout`, which ends the session here and at NIA (RP-initiated logout) and comes
 * back to the home page. Whoever leaves a public computer after leaving the form is signed out.
 */

/** The language of the form that holds an active NIA session, or null when none does. */
let signedIn: Lang | null = null;

/** Whether the form on screen holds an active NIA sign-in (the leave question asks). */
export const niaSignedIn = (): boolean => signedIn !== null;

/** The portal's home pages (App.tsx): going there from the form ends the sign-in. */
const HOME_PATHS = ['/', '/duplikat', '/duplicate'];

/** Leaves for the sign-out (the typed input is given up: the person chose to leave). */
export function signOutAtNia(lang: Lang | null = signedIn): void {
  signedIn = null;
  clearDraft();
  // Without the browser's own "leave site?" question: the person has just answered ours.
  leaveKeepingDraft(withLang('/api/ros/sso-logout', lang ?? 'cs'));
}

/** Held by the form while `active` (a sign-in session, not yet used up by a send or given up). */
export function useNiaSignOut(active: boolean, lang: Lang): void {
  // The app's own history (a memory one in tests); the browser's location without a router.
  const history = useNavigationGuard();
  useEffect(() => {
    signedIn = active ? lang : null;
  }, [active, lang]);
  useEffect(
    () => () => {
      const held = signedIn;
      if (held === null) return;
      signedIn = null;
      // The form went away: to a home page (the logo, a home link, Back) means leaving the service.
      const path = (history?.location.pathname ?? window.location.pathname).replace(/\/+$/, '') || '/';
      if (HOME_PATHS.includes(path)) signOutAtNia(held);
    },
    [history],
  );
}

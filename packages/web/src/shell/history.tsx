import { createContext, type ReactNode, startTransition, useContext, useLayoutEffect, useState } from 'react';
import { Router, type To, type UNSAFE_createBrowserHistory } from 'react-router';

// react-router in declarative mode (<Router> with a history) instead of its data router
// (createBrowserRouter): the data router's loaders, actions and fetchers weighed 17 kB gzipped on
// every page, there only for useBlocker (issue 14). The one thing the app needs from it, holding
// back a navigation while the form asks "leave?", is this history wrapper.

type History = ReturnType<typeof UNSAFE_createBrowserHistory>;
/** The part of a location that decides the screen. */
export type Where = { pathname: string; search: string };

/** A navigation held back: go on with it, or stay where we are. */
export interface PendingNavigation {
  proceed(): void;
  reset(): void;
}

/** Decides about a navigation from `from` to `to`: true holds it back (then `pending` decides it). */
export type NavigationBlocker = (from: Where, to: Where, pending: PendingNavigation) => boolean;

export interface GuardedHistory extends History {
  /** Installs the one blocker; returns its removal. */
  block(blocker: NavigationBlocker): () => void;
}

/**
 * Wraps a react-router history (browser, or memory in tests; made with `v5Compat: true`) so that
 * a blocker can hold back pushes and replaces (links, navigate()) and Back/Forward: a Back or
 * Forward is a `popstate` that already happened, so it is undone (`go(-delta)`) before the
 * router sees it, and `proceed` goes the same way again.
 */
export function guardHistory(history: History): GuardedHistory {
  let blocker: NavigationBlocker | null = null;
  let current: Where = history.location;
  let undoing = false;
  let passing = false;
  const stay = () => {};
  const where = (to: To): Where => {
    if (typeof to === 'string') {
      const url = new URL(to, `http://x${current.pathname}`);
      return { pathname: url.pathname, search: url.search };
    }
    return { pathname: to.pathname ?? current.pathname, search: to.search ?? '' };
  };
  const held = (to: To, go: () => void) =>
    blocker?.(current, where(to), { proceed: go, reset: stay }) === true;

  return {
    get action() {
      return history.action;
    },
    get location() {
      return history.location;
    },
    createHref: (to) => history.createHref(to),
    createURL: (to) => history.createURL(to),
    encodeLocation: (to) => history.encodeLocation(to),
    push(to, state) {
      if (!held(to, () => history.push(to, state))) history.push(to, state);
    },
    replace(to, state) {
      if (!held(to, () => history.replace(to, state))) history.replace(to, state);
    },
    go: (delta) => history.go(delta),
    listen(listener) {
      return history.listen((update) => {
        if (update.action === 'POP' && !passing) {
          if (undoing) {
            // The pop that undid a held-back Back/Forward: the router never saw either.
            undoing = false;
            return;
          }
          const { delta } = update;
          if (delta && blocker) {
            const proceed = () => {
              passing = true;
              history.go(delta);
            };
            if (blocker(current, update.location, { proceed, reset: stay })) {
              undoing = true;
              history.go(-delta);
              return;
            }
          }
        }
        passing = false;
        current = update.location;
        listener(update);
      });
    },
    block(next) {
      blocker = next;
      return () => {
        if (blocker === next) blocker = null;
      };
    },
  };
}

const GuardContext = createContext<GuardedHistory | null>(null);

/** The app's history, to hold back navigation (null outside a `<GuardedRouter>`). */
export const useNavigationGuard = (): GuardedHistory | null => useContext(GuardContext);

/** react-router's `<Router>` on a guarded history (what `<BrowserRouter>` does with its own). */
export function GuardedRouter({ history, children }: { history: GuardedHistory; children: ReactNode }) {
  const [state, setState] = useState({ action: history.action, location: history.location });
  useLayoutEffect(
    () => history.listen(({ action, location }) => startTransition(() => setState({ action, location }))),
    [history],
  );
  return (
    <GuardContext.Provider value={history}>
      <Router location={state.location} navigationType={state.action} navigator={history}>
        {children}
      </Router>
    </GuardContext.Provider>
  );
}

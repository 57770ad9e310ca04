import { useLocation, useNavigate } from 'react-router';

/**
 * The history entry of a sent request (issue 28, a shared computer): once the request is sent,
 * the entry the success screen stood on is marked in its history state (the router's location
 * state, kept by the browser with the entry). Shown again (Back or Forward, a reload, the
 * back/forward cache) it gives the "already sent" screen, never the success screen with the
 * person's details, which live only in the page's memory.
 */
const MARK = 'rosSent';

export function useSentEntry(): { sent: boolean; mark: () => void; unmark: () => void } {
  const location = useLocation();
  const navigate = useNavigate();
  const state = location.state as Record<string, unknown> | null;
  const here = { pathname: location.pathname, search: location.search, hash: location.hash };
  return {
    sent: state?.[MARK] === true,
    mark: () => navigate(here, { replace: true, state: { [MARK]: true } }),
    unmark: () => navigate(here, { replace: true, state: null }),
  };
}

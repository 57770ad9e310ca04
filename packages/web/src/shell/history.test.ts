import { UNSAFE_createMemoryHistory } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { guardHistory, type PendingNavigation } from './history';

/** A guarded memory history at /form after /home, with a listener standing in for the router. */
function setup() {
  const history = guardHistory(
    UNSAFE_createMemoryHistory({ initialEntries: ['/home', '/form?a=1'], v5Compat: true }),
  );
  const seen: string[] = [];
  history.listen(({ location }) => seen.push(`${location.pathname}${location.search}`));
  let pending: PendingNavigation | null = null;
  const blocker = vi.fn((_from, to: { pathname: string }, p: PendingNavigation) => {
    if (to.pathname === '/form') return false;
    pending = p;
    return true;
  });
  const unblock = history.block(blocker);
  const at = () => `${history.location.pathname}${history.location.search}`;
  return { history, seen, blocker, unblock, at, pending: () => pending };
}

describe('guardHistory', () => {
  it('holds back a push the blocker claims; proceed makes it, reset drops it', () => {
    const { history, seen, blocker, at, pending } = setup();
    history.push('/home');
    expect(blocker).toHaveBeenCalledWith(
      expect.objectContaining({ pathname: '/form', search: '?a=1' }),
      { pathname: '/home', search: '' },
      expect.anything(),
    );
    expect(at()).toBe('/form?a=1');
    expect(seen).toEqual([]);
    pending()?.reset();
    expect(at()).toBe('/form?a=1');
    history.push({ pathname: '/check', search: '?lang=en' });
    pending()?.proceed();
    expect(at()).toBe('/check?lang=en');
    expect(seen).toEqual(['/check?lang=en']);
  });

  it('lets through what the blocker does not claim, and everything once unblocked', () => {
    const { history, seen, unblock, at } = setup();
    history.replace('/form?a=2');
    expect(at()).toBe('/form?a=2');
    unblock();
    history.push('/home');
    expect(seen).toEqual(['/form?a=2', '/home']);
  });

  it('undoes a held-back Back before the router sees it; proceed goes back after all', () => {
    const { history, seen, blocker, at, pending } = setup();
    history.go(-1);
    expect(blocker).toHaveBeenCalledWith(
      expect.objectContaining({ pathname: '/form' }),
      expect.objectContaining({ pathname: '/home' }),
      expect.anything(),
    );
    expect(at()).toBe('/form?a=1');
    expect(seen).toEqual([]);
    pending()?.reset();
    history.go(-1);
    pending()?.proceed();
    expect(at()).toBe('/home');
    expect(seen).toEqual(['/home']);
    // Forward into the form is not held back.
    history.go(1);
    expect(seen).toEqual(['/home', '/form?a=1']);
  });
});

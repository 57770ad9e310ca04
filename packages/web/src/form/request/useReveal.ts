import { startTransition, useCallback, useEffect, useState } from 'react';
import { flushSync } from 'react-dom';

/**
 * Step 2's sections, shown a few at a time (issue 14): the first `first` at once, then one more
 * per task (`setTimeout(0)`), so that the page's load is not one long render of the whole request
 * and the browser can paint and handle input in between. Each one renders as a transition (issue
 * 29): React renders it in slices of a few milliseconds, so no section is one long task on a slow
 * phone, and typing in a shown field is never held up by a section being added. `revealAll()` puts every remaining one in
 * the page before it returns (`flushSync`): a finish needs every field in the document (the error
 * summary's links, its page order, focus).
 */
export function useReveal(total: number, first: number) {
  const [shown, setShown] = useState(Math.min(first, total));
  useEffect(() => {
    if (shown >= total) return;
    const timer = setTimeout(() => startTransition(() => setShown((n) => Math.min(total, n + 1))), 0);
    return () => clearTimeout(timer);
  }, [shown, total]);
  const revealAll = useCallback(() => {
    if (shown < total) flushSync(() => setShown(total));
  }, [shown, total]);
  return { shown, all: shown >= total, revealAll };
}

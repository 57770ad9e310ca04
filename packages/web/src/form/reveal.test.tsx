import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { findFinish, renderRequestForm } from '../test/requestForm';

// The bot check loads the ALTCHA web component, which jsdom cannot run.
vi.mock('./botcheck', () => ({
  getBotToken: vi.fn(async () => 't'),
  resetBotCheck: vi.fn(),
  BotCheckWidget: () => null,
}));

const has = (id: string) => document.getElementById(id) !== null;

/**
 * Calls `then` at the first moment step 2 is in the document: in a microtask after the DOM change,
 * before any later task (timer) can add to it.
 */
function atFirstRender(then: () => void): MutationObserver {
  const observer = new MutationObserver(() => {
    if (!has('first_name')) return;
    observer.disconnect();
    then();
  });
  observer.observe(document.body, { childList: true, subtree: true });
  return observer;
}

let observer: MutationObserver | undefined;
afterEach(() => observer?.disconnect());

describe('step 2 arrives a few sections at a time (issue 14)', { timeout: 30000 }, () => {
  it('the first render holds the first sections only; the rest and the finish bar follow in later tasks', async () => {
    let first: Record<string, boolean> = {};
    observer = atFirstRender(() => {
      first = {
        first_name: has('first_name'),
        employer: has('employer_current_name'),
        finish: has('finish'),
      };
    });
    renderRequestForm();
    await findFinish();
    expect(first).toEqual({ first_name: true, employer: false, finish: false });
    expect(has('employer_current_name')).toBe(true);
    expect(has('email')).toBe(true);
  });

  it('a finish before every section is in (Enter in a box) puts them all in and lists their errors', async () => {
    let atSubmit: Record<string, boolean> = {};
    observer = atFirstRender(() => {
      const form = document.querySelector('form.request') as HTMLFormElement;
      atSubmit = { employer: has('employer_current_name') };
      form.requestSubmit();
      atSubmit.employerAfter = has('employer_current_name');
    });
    renderRequestForm();
    const summary = await screen.findByTestId('error-summary');
    expect(atSubmit).toEqual({ employer: false, employerAfter: true });
    // A later section's field is listed, and its link leads to a box in the page.
    const link = within(summary)
      .getAllByRole('link')
      .find((a) => a.getAttribute('href') === '#employer_current_name');
    expect(link).toBeDefined();
    expect(has('employer_current_name')).toBe(true);
    expect(document.activeElement).toBe(summary);
  });

  it('on a busy machine the tests wait for the finish bar as long as sections keep arriving (issue 39)', async () => {
    // Each section the form adds (its data-shown grows) costs 400 ms of the only thread, as on a
    // loaded machine: the sections together take far longer than one waiting time (1.5 s), each
    // one less.
    const busy = new MutationObserver(() => {
      const until = performance.now() + 400;
      while (performance.now() < until) {}
    });
    busy.observe(document.body, { attributes: true, attributeFilter: ['data-shown'], subtree: true });
    try {
      renderRequestForm();
      // A fixed wait ends first (what failed under load)...
      await expect(screen.findByTestId('finish', {}, { timeout: 1500 })).rejects.toThrow();
      // ...the wait for the form's own progress does not.
      expect(await findFinish(1500)).toBeInTheDocument();
    } finally {
      busy.disconnect();
    }
  });
});

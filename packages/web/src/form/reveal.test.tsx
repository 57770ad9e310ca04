import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderRequestForm } from '../test/requestForm';

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
    await screen.findByTestId('finish');
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
});

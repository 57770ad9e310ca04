import { arrivalState, type RequestChannel, stateWords } from '@ros/domain';
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../test/render';
import { SuccessView } from './SuccessView';

/**
 * What the success screen says of where the request stands (issue 36, issue 38): a paper request
 * waits for its signed PDF; a request sent after NIA sign-in is received on arrival (the server
 * stores it `received`, requests/store.ts receiveOnArrival), so the screen says so, in the words
 * of @ros/domain's statusWords, and never that it waits for the authority to take it over (the
 * words of a NIA request stored before issue 38, still `new`, on the status page only).
 */

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const LANGS = ['cs', 'en'] as const;

/** The words as the applicant reads them (the vocabulary's, written out: a drift fails here). */
const EXPECTED = {
  cs: {
    nia: 'Žádost přijata úřadem',
    pdf: 'Čekáme na Vaši podepsanou žádost – úřad ji zatím nemá',
    next: 'žádost byla odeslána přímo úřadu',
  },
  en: {
    nia: 'Request received by the Authority',
    pdf: 'Waiting for your signed request – the Authority does not have it yet',
    next: 'the request was sent to the authority directly',
  },
} as const;

/** "Waiting for the Authority to take it over" in any form, and the state's own words. */
const TAKE_OVER = /převzetí|převezme|take it over|taken it over/i;

function renderSuccess(lang: 'cs' | 'en', channel: RequestChannel) {
  // The paper variant starts the PDF download by navigating; the NIA one must not.
  const assign = vi.fn();
  vi.stubGlobal('location', { ...window.location, assign });
  renderApp({
    path: lang === 'en' ? '/form?lang=en' : '/form',
    api: {},
    children: (
      <SuccessView
        answer={{
          text: '',
          id: 'x'.repeat(24),
          reference: 'ROS-2026-000123',
          ...(channel === 'nia' ? { email: true as const } : {}),
          access_code: 'ABCD-EFGH-JKLM',
        }}
        email="jana@example.cz"
        attachments={[]}
      />
    ),
  });
  return assign;
}

describe('the success screen says where the request stands', () => {
  for (const lang of LANGS) {
    it(`${lang}: after NIA sign-in the request is received by the Authority on arrival`, async () => {
      renderSuccess(lang, 'nia');
      const success = await screen.findByTestId('submit-success');
      expect(success).toHaveAttribute('data-variant', 'email');
      const state = screen.getByTestId('submit-state');
      expect(state.textContent).toBe(EXPECTED[lang].nia);
      expect(state.textContent).toBe(stateWords(lang, 'received').step);
      expect(state.textContent).toBe(stateWords(lang, arrivalState('nia')).step);
      // Nowhere on the screen a wait for the authority to take it over.
      expect(success.textContent).not.toMatch(TAKE_OVER);
      expect(success.textContent).not.toContain(stateWords(lang, 'waiting_authority').step);
      expect(success.textContent).not.toContain(stateWords(lang, 'waiting_authority').state);
      expect(success.textContent).toContain(EXPECTED[lang].next);
    });

    it(`${lang}: a paper request waits for its signed PDF and is not received`, async () => {
      const assign = renderSuccess(lang, 'pdf');
      const success = await screen.findByTestId('submit-success');
      expect(success).toHaveAttribute('data-variant', 'pdf');
      const state = screen.getByTestId('submit-state');
      expect(state.textContent).toBe(EXPECTED[lang].pdf);
      expect(state.textContent).toBe(stateWords(lang, arrivalState('pdf')).step);
      expect(success.textContent).not.toMatch(/přijat|received/i);
      expect(assign).toHaveBeenCalledWith(`/api/ros/pdf/${'x'.repeat(24)}`);
    });
  }
});

import { describe, expect, it } from 'vitest';
import { REQUEST_STATUSES } from './requestStatus.js';
import { arrivalState, firstState, REQUEST_STATES, requestState, stateWords } from './statusWords.js';

describe('the request states in words (issue 36)', () => {
  it('a new request waits for the paper on the paper route and for the authority after NIA', () => {
    expect(requestState('new', 'pdf')).toBe('waiting_paper');
    expect(requestState('new', 'nia')).toBe('waiting_authority');
    expect(firstState('pdf')).toBe('filled');
    expect(firstState('nia')).toBe('sent');
    for (const s of REQUEST_STATUSES.filter((x) => x !== 'new')) expect(requestState(s, 'pdf')).toBe(s);
  });

  it('on arrival a paper request waits for its signed PDF, a NIA request is received (issue 38)', () => {
    expect(arrivalState('pdf')).toBe('waiting_paper');
    expect(arrivalState('nia')).toBe('received');
  });

  it('every state has both words in both languages, and only received says received', () => {
    for (const lang of ['cs', 'en'] as const)
      for (const s of REQUEST_STATES) {
        const w = stateWords(lang, s);
        expect(w.state.length).toBeGreaterThan(0);
        expect(w.step.length).toBeGreaterThan(0);
        if (s !== 'received') expect(`${w.state} ${w.step}`).not.toMatch(/přijat|received/i);
      }
  });
});

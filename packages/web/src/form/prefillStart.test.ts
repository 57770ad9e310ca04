import { defaultFormValues, type SearchAnswer } from '@ros/domain';
import { describe, expect, it } from 'vitest';
import { manualStart, startFromPerson } from './prefillStart';
import { submitBody, validatePayload } from './submit';

// The search answer's match token (issue 11): kept with the start, sent with validate and submit.
const person: SearchAnswer = {
  jmeno: 'Štěpán',
  prijmeni: 'Dvořák',
  rc: '850315/1008',
  match: 'm'.repeat(43),
};

describe('the match token of the search answer', () => {
  it('is kept in the start of a found person, not in a manual start', () => {
    expect(startFromPerson(person, false).match).toBe(person.match);
    expect(manualStart().match).toBeUndefined();
  });
  it('goes with validate and submit, and is left out when there is none', () => {
    const values = defaultFormValues();
    expect(validatePayload(values, false, person.match).match).toBe(person.match);
    const agreement = {
      version: '1',
      channel: 'paper' as const,
      ticked: { signature: true, affidavit: true, purpose: true },
    };
    expect(
      submitBody(values, 'cs', false, { email: false, phone: false }, agreement, person.match).match,
    ).toBe(person.match);
    expect('match' in validatePayload(values, false)).toBe(false);
    expect('match' in submitBody(values, 'cs', false, { email: false, phone: false }, agreement)).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { requiredAttachments } from './attachments.js';

const stay = { state: 'SK', reason: 'Práce' };

describe('requiredAttachments', () => {
  it('asks for criminal-record extracts for stays abroad, not in a duplicate', () => {
    expect(requiredAttachments({ abroad_stay: [stay], birth_number: '8503151008' }, false)).toEqual([
      'abroad',
    ]);
    expect(requiredAttachments({ abroad_stay: [stay], birth_number: '8503151008' }, true)).toEqual([]);
  });

  it('asks for a copy of the identity document without a birth number', () => {
    expect(requiredAttachments({ abroad_stay: [], birth_number: ' ' }, false)).toEqual(['identity']);
    expect(requiredAttachments({ abroad_stay: [stay], birth_number: '' }, false)).toEqual([
      'abroad',
      'identity',
    ]);
    expect(requiredAttachments({ abroad_stay: [], birth_number: '' }, true)).toEqual(['identity']);
    expect(requiredAttachments({ abroad_stay: [], birth_number: '8503151008' }, false)).toEqual([]);
  });
});

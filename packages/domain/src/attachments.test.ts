import { describe, expect, expectTypeOf, it } from 'vitest';
import { ATTACHMENTS, type AttachmentField, requiredAttachments } from './attachments.js';
import { type Catalogue, FIELDS } from './fields.js';

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

describe('requiredAttachments by the entries’ `attachment` (issue 34)', () => {
  it('are asked by the birth number (when empty) and the stays abroad (when filled)', () => {
    expectTypeOf<AttachmentField>().toEqualTypeOf<'birth_number' | 'abroad_stay'>();
    const asking = Object.entries(FIELDS).flatMap(([name, spec]) =>
      spec.attachment ? [[name, spec.attachment]] : [],
    );
    expect(asking).toEqual([
      ['birth_number', { need: 'identity', when: 'empty' }],
      ['abroad_stay', { need: 'abroad', when: 'filled' }],
    ]);
  });

  it('come in the order of ATTACHMENTS (the PDF’s), whatever the catalogue’s order', () => {
    expect(ATTACHMENTS).toEqual(['abroad', 'identity']);
    const reversed = Object.fromEntries(Object.entries(FIELDS).reverse()) as Catalogue;
    const values = { abroad_stay: [stay], birth_number: '' };
    expect(requiredAttachments(values, false, reversed)).toEqual(['abroad', 'identity']);
  });

  it('follow a catalogue’s entry: a field that asks, while shown, when empty or filled', () => {
    const catalogue: Catalogue = {
      ...FIELDS,
      birth_number: { ...FIELDS.birth_number, attachment: undefined },
      // A field of the employer section (hidden in duplicate mode) asking for the identity copy.
      extra: {
        kind: 'text',
        maxLength: 10,
        section: 'employer',
        attachment: { need: 'identity', when: 'filled' },
      },
    };
    const values = { abroad_stay: [], birth_number: '', extra: 'x' } as never;
    expect(requiredAttachments(values, false, catalogue)).toEqual(['identity']);
    expect(requiredAttachments(values, true, catalogue)).toEqual([]);
    expect(
      requiredAttachments({ abroad_stay: [], birth_number: '', extra: ' ' } as never, false, catalogue),
    ).toEqual([]);
  });
});

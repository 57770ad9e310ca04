import { describe, expect, it } from 'vitest';
import { backfillFormValues, storedFormValues } from './backfill.js';
import { type Catalogue, defaultFormValues, FIELDS, type FormValues } from './fields.js';

/** A body as stored before some fields existed: the defaults without them. */
const without = (...names: Array<keyof FormValues>) => {
  const body: Record<string, unknown> = { ...defaultFormValues() };
  for (const name of names) delete body[name];
  return body;
};

describe('one back-fill of stored and older request bodies (issue 34)', () => {
  it('decodes an old body without dial_code and other later-added fields to the defaults', () => {
    const old = without(
      'dial_code',
      'aifo',
      'send_notifications_email',
      'send_notifications_phone',
      'employer_current_position',
      'reason_for_request',
      'duplicate_type',
    );
    // The dial code reads as its entry's `absent` (decision 0003: an older request's is not
    // guessed), every other field as its default.
    expect(storedFormValues(JSON.stringify(old))).toEqual({ ...defaultFormValues(), dial_code: '' });
    expect(FIELDS.dial_code.absent).toBe('');
  });

  it('decodes an empty body to the defaults, and keeps what a body holds', () => {
    expect(storedFormValues('{}')).toEqual({ ...defaultFormValues(), dial_code: '' });
    const stored = { ...defaultFormValues(), first_name: 'Jana', dial_code: '+421', extra: 1 };
    expect(storedFormValues(JSON.stringify(stored))).toEqual(stored);
  });

  it('gives each decoded body its own lists', () => {
    const a = backfillFormValues({});
    const b = backfillFormValues({});
    a.past_activities.push({ from: '', to: '', type: '', field1: '', field2: '' });
    expect(b.past_activities).toEqual([]);
  });

  it("fills a submitted body's fields only where their entry says what an older page meant", () => {
    const sent = backfillFormValues(without('dial_code', 'first_name', 'send_notifications_phone'), {
      sent: true,
    });
    expect(sent.dial_code).toBe('');
    // The schema refuses these (required): a hand-made body, not an older page.
    expect('first_name' in sent).toBe(false);
    expect('send_notifications_phone' in sent).toBe(false);
  });

  it("back-fills a test catalogue's added field with an empty value of its kind", () => {
    const catalogue: Catalogue = {
      ...FIELDS,
      pet_name: { kind: 'text', maxLength: 20 },
      pet_tags: { kind: 'items', maxItems: 3, item: { kind: 'text', maxLength: 5 } },
      pet_ok: { kind: 'boolean' },
    };
    const values = storedFormValues(JSON.stringify(defaultFormValues()), catalogue) as unknown as Record<
      string,
      unknown
    >;
    expect(values).toMatchObject({ pet_name: '', pet_tags: [], pet_ok: false, dial_code: '+420' });
  });
});

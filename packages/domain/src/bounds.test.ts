import { describe, expect, it } from 'vitest';
import { MAX_ISSUES, scanJsonShape } from './bounds.js';
import { defaultFormContext, defaultFormValues, FIELDS } from './fields.js';
import { buildFormSchema, FORM_BODY_LIMITS, issuesToFieldErrors, validateFormValues } from './form.js';
import {
  MAX_ABROAD_STAYS,
  MAX_DUPLICATE_TYPES,
  MAX_OTHER_CITIZENSHIPS,
  MAX_PAST_ACTIVITIES,
} from './limits.js';
import { BIRTH_NUMBER_SEARCH_BODY_LIMITS, SEARCH_BODY_LIMITS } from './search.js';
import { VALIDATE_BODY_LIMITS } from './validatePayload.js';

const today = { year: 2025, month: 3, day: 15 };

/** A list that counts how many of its items are read (an index or an iterator step). */
function countingList(items: unknown[]): { list: unknown[]; reads: () => number } {
  let n = 0;
  const list = new Proxy(items, {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) n++;
      if (key === Symbol.iterator) {
        return function* () {
          for (const item of target) {
            n++;
            yield item;
          }
        };
      }
      return Reflect.get(target, key, receiver);
    },
  });
  return { list, reads: () => n };
}

/** UTF-8 length of a text (this package has no Node or DOM types). */
function utf8Length(text: string): number {
  let n = 0;
  for (const ch of text) {
    const c = ch.codePointAt(0) ?? 0;
    n += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
  }
  return n;
}

describe('lists are bounded before their items are read', () => {
  const schema = buildFormSchema(defaultFormContext({ noPrefill: true }), today);
  const huge: Array<[string, unknown[]]> = [
    ['past_activities', Array(200_000).fill({})],
    ['abroad_stay', Array(200_000).fill({})],
    ['duplicate_type', Array(200_000).fill(0)],
    ['other_citizenships', Array(200_000).fill('')],
  ];
  for (const [field, items] of huge) {
    it(`${field}: 200,000 items are one maxlength issue, in a few ms`, () => {
      const input = { ...defaultFormValues(), [field]: items };
      const result = schema.safeParse(input);
      expect(result.success).toBe(false);
      const errors = issuesToFieldErrors(result.error?.issues ?? []);
      expect(errors[field]?.key).toBe('maxlength');
      expect(Object.keys(errors).filter((k) => k.startsWith(`${field}.`))).toEqual([]);
      // Before the bound came first every row was read: 50,000 empty rows took 0.6 s here and
      // 5-8 s on the server. Counted, not timed: the items read stay a handful.
      const { list, reads } = countingList(items);
      expect(schema.safeParse({ ...defaultFormValues(), [field]: list }).success).toBe(false);
      expect(reads()).toBeLessThan(10);
    });
  }

  it('caps the issues of a body at MAX_ISSUES', () => {
    const rows = Array.from({ length: MAX_PAST_ACTIVITIES }, () => ({
      from: 'x',
      to: 'y',
      type: '' as const,
      field1: '',
      field2: '',
    }));
    const issues = validateFormValues(
      { ...defaultFormValues(), past_activities: rows },
      defaultFormContext({ noPrefill: true }),
      today,
    );
    expect(issues.length).toBe(MAX_ISSUES);
  });
});

describe('body limits', () => {
  const largestValidForm = () => {
    const long = (n: number) => 'ř'.repeat(n);
    return JSON.stringify({
      ...defaultFormValues(),
      first_name: long(FIELDS.first_name.maxLength),
      last_name: long(FIELDS.last_name.maxLength),
      birth_name: long(FIELDS.birth_name.maxLength),
      employer_current_name: long(240),
      employer_current_description: long(240),
      reason_for_request: long(240),
      contact_company: long(240),
      email: long(240),
      other_citizenships: Array(MAX_OTHER_CITIZENSHIPS).fill('CZ'),
      duplicate_type: Array(MAX_DUPLICATE_TYPES).fill('POSKOZENI'),
      past_activities: Array.from({ length: MAX_PAST_ACTIVITIES }, () => ({
        from: '01/2020',
        to: '12/2020',
        type: '1',
        field1: long(240),
        field2: long(240),
      })),
      abroad_stay: Array.from({ length: MAX_ABROAD_STAYS }, () => ({ state: 'SK', reason: long(3993) })),
      language: 'cs',
      duplicate: false,
      match: 'm'.repeat(43),
    });
  };

  it('a valid body at every maximum fits the form limits', () => {
    const text = largestValidForm();
    expect(utf8Length(text)).toBeLessThanOrEqual(FORM_BODY_LIMITS.maxBytes);
    expect(scanJsonShape(text, FORM_BODY_LIMITS)).toBeNull();
    expect(FORM_BODY_LIMITS.maxDepth).toBe(3);
  });

  it('the search and validate bodies are small and flat', () => {
    for (const l of [SEARCH_BODY_LIMITS, BIRTH_NUMBER_SEARCH_BODY_LIMITS, VALIDATE_BODY_LIMITS]) {
      expect(l.maxBytes).toBeLessThanOrEqual(8 * 1024);
      expect(l.maxDepth).toBe(1);
    }
    expect(FORM_BODY_LIMITS.maxBytes).toBeLessThanOrEqual(320 * 1024);
  });
});

describe('scanJsonShape', () => {
  const limits = { maxBytes: 1000, maxDepth: 2, maxValues: 5 };
  it('passes a body within its limits, brackets and separators inside strings do not count', () => {
    expect(scanJsonShape('{"a":[1,2],"b":"[[[{{{,,,:::\\"]]]"}', limits)).toBeNull();
  });
  it('refuses nesting past the limit, at once', () => {
    expect(scanJsonShape('{"a":[[1]]}', limits)).toBe('depth');
    const deep = '['.repeat(400_000) + ']'.repeat(400_000);
    expect(scanJsonShape(deep, { maxBytes: 1e7, maxDepth: 3, maxValues: 10 })).toBe('depth');
  });
  it('refuses too many values (members or items)', () => {
    expect(scanJsonShape(`[${Array(20).fill(0).join(',')}]`, limits)).toBe('values');
    const keys = `{${Array.from({ length: 20 }, (_, i) => `"k${i}":0`).join(',')}}`;
    expect(scanJsonShape(keys, limits)).toBe('values');
  });
  it('refuses a text longer than the byte limit without reading it', () => {
    expect(scanJsonShape('"'.padEnd(1001, 'x'), limits)).toBe('bytes');
  });
  it('passes the largest body in one reading of its characters', () => {
    // One pass and no copies (its speed is bench/stall.mjs's, not a test's): each character read
    // once, counted through a text whose charCodeAt counts.
    const raw = `{"a":"${'x'.repeat(300_000)}"}`;
    let reads = 0;
    const text = {
      length: raw.length,
      charCodeAt(i: number) {
        reads++;
        return raw.charCodeAt(i);
      },
    } as unknown as string;
    expect(scanJsonShape(text, { maxBytes: 400_000, maxDepth: 3, maxValues: 10 })).toBeNull();
    expect(reads).toBeLessThanOrEqual(raw.length);
  });
});

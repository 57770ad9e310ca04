import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { type ActivityTypeCode, defaultFormValues, type FormValues, type PastActivity } from '@ros/domain';
import { describe, expect, it } from 'vitest';
import type { StoredRequest } from '../requests/repository.js';
import { agreedTexts } from '../test/applicant.js';
import { buildPdfModel, type CodeNames } from './model.js';
import { renderPdf } from './render.js';

/**
 * The PDF byte comparison (issue 25's split of render.ts, issue 34's labels by field name): 240
 * requests (2 languages x new/duplicate x paper/NIA x 3 headers x 10 sets of values), each
 * rendered at a fixed instant and hashed. A refactoring that must not change the PDF renders
 * them before and after and compares the lists:
 *
 *   PDF_VARIANT_HASHES=/tmp/before.txt npx vitest run packages/server/src/pdf/variants.test.ts
 *   (change, then the same with /tmp/after.txt; `cmp /tmp/before.txt /tmp/after.txt`)
 *
 * Without PDF_VARIANT_HASHES it renders only a few of them (each twice: the bytes depend on
 * nothing but the request and the instant).
 */

const names: CodeNames = {
  country: (c) =>
    ({ CZ: 'Česká republika', SK: 'Slovensko', DE: 'Německo', '##': 'bez státní příslušnosti' })[c] ?? c,
  listItem: (l, c) => `${l}:${c}`,
  municipality: (c) => `obec ${c}`,
  district: (c) => `okres ${c}`,
};

const person: Partial<FormValues> = {
  first_name: 'Žofie',
  last_name: 'Řeháková',
  birth_name: 'Nováková',
  sex: '2',
  birth_date: '1992-11-23',
  birth_number: '9261230006',
  birth_state: 'CZ',
  birth_municipality: '554782',
  birth_district: '40924',
  citizen_of_1: 'CZ',
  document_type: 'OP_CR',
  document_number: '987654321',
  home_street: 'Dlouhá',
  home_house_num: '12',
  home_org_num: '5',
  home_city: 'Ústí nad Labem',
  home_zip: '400 01',
  home_state: 'CZ',
  contact_street: 'Dlouhá',
  contact_house_num: '12',
  contact_city: 'Ústí nad Labem',
  contact_zip: '400 01',
  contact_state: 'CZ',
  dial_code: '+420',
  telephone: '777123456',
  email: 'zofie.rehakova@example.cz',
  delivery_type: 'EMAIL',
  employer_current_name: 'Letiště Václava Havla Praha',
  employer_current_from: '01/2015',
  employer_verification_type: 'OSVEDCENI1',
  employer_current_description: 'Bezpečnostní kontrola zavazadel',
};

const activity = (i: number, type: ActivityTypeCode = '1'): PastActivity => ({
  from: `01/${2000 + i}`,
  to: `12/${2000 + i}`,
  type,
  field1: `Letiště Praha a.s., provoz ${i}`,
  field2: type === '3' ? '' : 'Pilot',
});

/** Ten sets of values: every kind of row, the print rules, page breaks, a long value continued. */
const VALUE_SETS: ReadonlyArray<Partial<FormValues>> = [
  {},
  { ...person },
  {
    ...person,
    other_citizenships: ['SK', 'DE'],
    citizen_of_2: 'SK',
    data_mailbox: 'abc1234',
    delivery_type: 'DATOVKOU',
    contact_company: 'Firma s.r.o.',
    contact_org_num: '7',
    past_activities: [activity(1), activity(2, '2'), activity(3, '3')],
    abroad_stay: [
      { state: 'SK', reason: 'Studium v Bratislavě' },
      { state: 'DE', reason: 'Práce\nna dva řádky' },
    ],
    duplicate_type: ['POSKOZENI', 'ZTRATA'],
    send_notifications_email: true,
    send_notifications_phone: true,
  },
  {
    ...person,
    birth_state: 'DE',
    birth_municipality: 'München',
    birth_district: '',
    birth_number: 'X-12345',
    citizen_of_1: '##',
    citizen_of_2: '',
  },
  { ...person, employer_current_position: 'Pilot', reason_for_request: 'Nová práce' },
  { ...person, dial_code: '', telephone: '+421 903 123 456' },
  {
    ...person,
    past_activities: Array.from({ length: 12 }, (_, i) => activity(i, (['1', '2', '3'] as const)[i % 3])),
  },
  {
    ...person,
    employer_current_description: 'Velmi dlouhý popis činnosti. '.repeat(8),
    abroad_stay: Array.from({ length: 6 }, (_, i) => ({
      state: i % 2 ? 'SK' : 'DE',
      reason: `Důvod pobytu číslo ${i}: `.repeat(12),
    })),
  },
  { ...person, birth_date: '23.11.199', sex: '0', employer_current_from: '' },
  {
    ...person,
    first_name: 'Cecil',
    last_name: 'Rozzi',
    email: 'cecil@example.com',
    duplicate_type: ['JINY'],
  },
];

interface Variant {
  name: string;
  request: StoredRequest;
  receivedAt: string | null;
  status?: { code: string; url: string };
}

export function pdfVariants(): Variant[] {
  const out: Variant[] = [];
  for (const language of ['cs', 'en'] as const)
    for (const duplicate of [false, true])
      for (const viaNia of [false, true])
        for (const header of ['plain', 'status', 'received'] as const)
          VALUE_SETS.forEach((set, i) => {
            const values = { ...defaultFormValues(), ...set } as FormValues;
            out.push({
              name: `${language} ${duplicate ? 'duplicate' : 'new'} ${viaNia ? 'nia' : 'paper'} ${header} ${i}`,
              request: {
                id: 'v'.repeat(24),
                reference: `ROS-2026-${String(100 + i).padStart(6, '0')}`,
                language,
                duplicate,
                viaNia,
                values,
                personKey: null,
                idempotencyKey: null,
                bodyHash: 'h',
                legal: agreedTexts(values),
                createdAt: '2026-06-30T22:30:00.000Z',
              },
              receivedAt: header === 'received' ? '2026-07-02T08:15:00.000Z' : null,
              ...(header === 'plain'
                ? {}
                : {
                    status: { code: 'ABCD2345EFGH', url: 'https://ros.example.cz/status?r=ROS-2026-000100' },
                  }),
            });
          });
  return out;
}

const NOW = new Date('2026-07-01T10:00:00.000Z');
const render = (v: Variant) =>
  renderPdf(buildPdfModel(v.request, names, undefined, v.receivedAt, v.status), NOW);
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

const out = process.env.PDF_VARIANT_HASHES;

describe('the PDF variants', { timeout: 600_000 }, () => {
  it('are 240, and render to the same bytes each time', async () => {
    const variants = pdfVariants();
    expect(variants).toHaveLength(240);
    for (const v of [variants[2], variants[187]] as Variant[])
      expect(sha256(await render(v))).toBe(sha256(await render(v)));
  });

  // Only when asked (a tool for a before/after comparison, not a check): no skipped test otherwise.
  if (out)
    it('write their hashes to PDF_VARIANT_HASHES', async () => {
      const lines: string[] = [];
      for (const v of pdfVariants()) lines.push(`${sha256(await render(v))}  ${v.name}`);
      writeFileSync(out as string, `${lines.join('\n')}\n`);
    });
});

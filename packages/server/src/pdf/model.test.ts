import { catalogueEntries, defaultFormValues, type FormFieldName, isFieldHidden } from '@ros/domain';
import { describe, expect, it } from 'vitest';
import type { StoredRequest } from '../requests/repository.js';
import { AGREED, newApplicant } from '../test/applicant.js';
import { buildPdfModel, type CodeNames } from './model.js';

/** Every code by a name that says where it came from. */
const names: CodeNames = {
  country: (c) => `country ${c}`,
  listItem: (l, c) => `${l} ${c}`,
  municipality: (c) => `municipality ${c}`,
  district: (c) => `district ${c}`,
};

function request(values: object, duplicate: boolean): StoredRequest {
  return {
    id: 'x'.repeat(24),
    reference: 'ROS-2026-000042',
    language: 'en',
    duplicate,
    viaNia: false,
    values: { ...defaultFormValues(), ...values } as StoredRequest['values'],
    personKey: null,
    idempotencyKey: null,
    bodyHash: '',
    legal: AGREED,
    createdAt: '2026-06-30T22:30:00.000Z',
  };
}

const shownValues = (r: StoredRequest) =>
  buildPdfModel(r, names).sections.flatMap((s) =>
    [...s.rows, ...s.groups.flatMap((g) => g.rows)].map((x) => x.value),
  );

describe('PDF model and the field catalogue', () => {
  // Every field whose codes have names (fields.ts): the PDF shows the name, never the code.
  const coded = catalogueEntries().filter(
    ({ spec }) =>
      spec.kind === 'country' ||
      spec.kind === 'list' ||
      spec.kind === 'municipality' ||
      spec.kind === 'district' ||
      (spec.kind === 'choice' && spec.names !== 'sex'),
  );
  for (const { path, spec } of coded) {
    it(`shows the name of the code in ${path} (${spec.kind === 'list' ? spec.list : spec.kind})`, () => {
      const [name, , column] = path.split('.') as [FormFieldName, string?, string?];
      const duplicate = isFieldHidden(name, { duplicate: false });
      const values: Record<string, unknown> = {
        ...newApplicant({
          telephone: '601123456',
          past_activities: [{ from: '01/2020', to: '02/2021', type: '1', field1: 'A', field2: 'B' }],
        }),
      };
      const code = spec.kind === 'choice' ? '2' : 'Q1';
      if (column) values[name] = [{ ...(values[name] as object[])[0], [column]: code }];
      else if (path.endsWith('.*')) values[name] = [code];
      else values[name] = code;
      const expected =
        spec.kind === 'list'
          ? `${spec.list} ${code}`
          : spec.kind === 'choice'
            ? `${spec.names} ${code}`
            : `${spec.kind} ${code}`;
      const shown = shownValues(request(values, duplicate));
      if (name === 'dial_code') {
        // The dial code is printed with the telephone ('+420 601 123 456'), by its code.
        expect(shown.some((v) => v.startsWith(code))).toBe(true);
        return;
      }
      expect(shown).toContain(expected);
      expect(shown).not.toContain(code);
    });
  }

  it('shows a birth outside CZ as typed, with no district; field2 not for activity type 3', () => {
    const abroad = shownValues(
      request(
        newApplicant({
          birth_state: 'SK',
          birth_municipality: 'Bratislava',
          birth_district: '',
          past_activities: [{ from: '01/2020', to: '02/2021', type: '3', field1: 'Cesta', field2: 'x' }],
        }),
        false,
      ),
    );
    expect(abroad).toContain('Bratislava');
    expect(abroad).not.toContain('municipality Bratislava');
    expect(abroad.some((v) => v.startsWith('district'))).toBe(false);
    expect(abroad).not.toContain('x');
  });
});

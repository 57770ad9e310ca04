import {
  type Catalogue,
  defaultFormContext,
  FIELDS,
  type FormValues,
  isFieldEnabled,
  isFieldRequired,
} from '@ros/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvColumns, csvRow } from '../cli/requests.js';
import { ApiError } from '../errors.js';
import { findByReference, toDetail } from '../intake/requests.js';
import { createAccessCodes } from '../notifications/accessCode.js';
import { type CatalogueLabels, PDF_LABELS } from '../pdf/labels.js';
import { type CodeNames, pdfSections } from '../pdf/model.js';
import { renderPdf } from '../pdf/render.js';
import { requestPdfModel } from '../pdf/requestPdf.js';
import { parseCsv } from '../reference/csv.js';
import { AGREED, agreed, newApplicant } from '../test/applicant.js';
import { createTestDb, type TestDb, testDbKinds } from '../test/databases.js';
import { pdfText } from '../test/pdfText.js';
import { seedFormData } from '../test/seed.js';
import { storeRequest } from './repository.js';
import { checkSubmission } from './submission.js';

/**
 * The catalogue is the whole field (issue 25, issue 34): a field added to it, and to nothing else,
 * is required and enabled by its entry, checked and stored by the server, printed in its section
 * of the PDF (the model and the document's bytes, read back), a column of the CSV export with its
 * value in the request's row, and a value of the intake API. The field lives only in this test's
 * catalogue, which the derived functions take as their last parameter, and in its texts: its PDF
 * label, added to the labels the way the field is added to the catalogue.
 */
const catalogue: Catalogue = {
  ...FIELDS,
  // The applicant's pet, asked beside the telephone: required, but only with a telephone.
  pet_name: {
    kind: 'text',
    maxLength: 20,
    section: 'contact',
    required: true,
    enabled: (v) => v.telephone.trim() !== '',
  },
};
type WithPet = FormValues & { pet_name?: string };
/** The English PDF labels with the pet's. */
const labels: CatalogueLabels = {
  ...PDF_LABELS.en,
  fields: { ...PDF_LABELS.en.fields, pet_name: 'Name of your pet' },
};

const names: CodeNames = {
  country: (c) => c,
  listItem: (_l, c) => c,
  municipality: (c) => c,
  district: (c) => c,
};
const noProof = { personId: null, matchHash: null, searched: false };
const body = (over: Partial<WithPet> = {}) => ({
  ...newApplicant(),
  language: 'en',
  duplicate: false,
  ...agreed(),
  ...over,
});
/** The fields of a refused body's INVALID_FORM. */
const refused = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return (error as ApiError).fields;
};

describe('a field added to the catalogue: the rules', () => {
  const ctx = defaultFormContext({ noPrefill: true });
  const values = { ...newApplicant(), pet_name: '' } as WithPet;

  it('is enabled and required as its entry says, and only in that catalogue', () => {
    expect(isFieldEnabled('pet_name', values, ctx, catalogue)).toBe(true);
    expect(isFieldRequired('pet_name', values, ctx, catalogue)).toBe(true);
    const noPhone = { ...values, telephone: '' };
    expect(isFieldEnabled('pet_name', noPhone, ctx, catalogue)).toBe(false);
    expect(isFieldRequired('pet_name', noPhone, ctx, catalogue)).toBe(false);
    expect(isFieldRequired('pet_name', values, ctx)).toBe(false);
  });

  it('is a CSV column of the export, before NIA’s identifier', () => {
    const columns = csvColumns(catalogue);
    expect(columns).toContain('pet_name');
    expect(columns.indexOf('pet_name')).toBeLessThan(columns.indexOf('nia_person_identifier'));
    expect(csvColumns()).not.toContain('pet_name');
  });
});

for (const kind of await testDbKinds()) {
  describe(`a field added to the catalogue: the server (${kind})`, () => {
    let t: TestDb;
    beforeAll(async () => {
      t = await createTestDb(kind);
      await seedFormData({ config: t.config, db: t.db, version: 'test' });
    });
    afterAll(async () => t?.cleanup());
    /** An accepted submission stored, and found again by its reference as the intake side finds it. */
    const stored = async (accepted: Awaited<ReturnType<typeof checkSubmission>>, hash: string) => {
      const r = await storeRequest(t.db, {
        language: accepted.language,
        duplicate: false,
        viaNia: false,
        niaIdentifier: null,
        values: accepted.values,
        personKey: `test:pet-${hash}`,
        idempotencyKey: null,
        bodyHash: hash.repeat(64),
        legal: AGREED,
      });
      if (!('request' in r)) throw new Error('not stored');
      const found = await findByReference(t.db, r.request.reference);
      if (found.kind !== 'found') throw new Error('not found');
      return found;
    };

    it('the payload check requires it, checks its length, and stores it trimmed', async () => {
      const now = new Date();
      expect(await refused(checkSubmission(t.db, body(), now, noProof, catalogue))).toContainEqual({
        path: 'pet_name',
        message: 'required',
      });
      expect(
        await refused(checkSubmission(t.db, body({ pet_name: 'R'.repeat(21) }), now, noProof, catalogue)),
      ).toContainEqual({ path: 'pet_name', message: 'maxlength' });
      // Off without a telephone: not required, and stored empty.
      const noPhone = await checkSubmission(
        t.db,
        body({ telephone: '', pet_name: 'Rex' }),
        now,
        noProof,
        catalogue,
      );
      expect((noPhone.values as WithPet).pet_name).toBe('');
      const accepted = await checkSubmission(t.db, body({ pet_name: '  Rex ' }), now, noProof, catalogue);
      expect((accepted.values as WithPet).pet_name).toBe('Rex');
    });

    it('the PDF prints it in its section, and the intake API answers it among the values', async () => {
      const now = new Date();
      const accepted = await checkSubmission(t.db, body({ pet_name: 'Rex' }), now, noProof, catalogue);
      const contact = pdfSections(accepted.values, false, labels, names, catalogue).find(
        (s) => s.heading === PDF_LABELS.en.sections.contact,
      );
      expect(contact?.rows).toContainEqual({ label: 'Name of your pet', value: 'Rex' });
      expect(
        pdfSections(accepted.values, false, PDF_LABELS.en, names)
          .flatMap((s) => s.rows)
          .map((r) => r.label),
      ).not.toContain('Name of your pet');
      // A field of the catalogue without its label is an error, not its name on the document.
      expect(() => pdfSections(accepted.values, false, PDF_LABELS.en, names, catalogue)).toThrow(
        'the PDF has no label for the field pet_name',
      );

      const found = await stored(accepted, 'c');
      expect((toDetail(found).values as WithPet).pet_name).toBe('Rex');

      // The document itself, as every copy of it is made (requestPdfModel, then the workers' renderPdf).
      const sources = {
        db: t.db,
        accessCodes: createAccessCodes(t.db, t.config),
        publicUrl: t.config.publicUrl,
      };
      const text = await pdfText(
        await renderPdf(
          await requestPdfModel(sources, found.request, { ...PDF_LABELS, en: labels }, catalogue),
        ),
      );
      // In its section: after the contact details' heading, before the next section's.
      const { contact: heading, employer: next } = PDF_LABELS.en.sections;
      expect(text.slice(text.indexOf(heading), text.indexOf(next))).toContain('Name of your pet Rex');
      expect(await pdfText(await renderPdf(await requestPdfModel(sources, found.request)))).not.toContain(
        'Name of your pet',
      );
    });

    it('the CSV export prints its value in its column of the request’s row', async () => {
      const now = new Date();
      const accepted = await checkSubmission(t.db, body({ pet_name: 'Rex' }), now, noProof, catalogue);
      const found = await stored(accepted, 'd');
      const columns = csvColumns(catalogue);
      const [row] = parseCsv(csvRow(toDetail(found), catalogue));
      expect(row?.fields).toHaveLength(columns.length);
      expect(row?.fields[columns.indexOf('reference')]).toBe(found.request.reference);
      expect(row?.fields[columns.indexOf('pet_name')]).toBe('Rex');
      expect(row?.fields[columns.indexOf('telephone')]).toBe(accepted.values.telephone);
      // The export's own catalogue has no such column, and so no such cell.
      expect(parseCsv(csvRow(toDetail(found)))[0]?.fields).toHaveLength(csvColumns().length);
    });
  });
}

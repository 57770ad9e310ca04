import { FIELDS, FORM_SECTIONS, printedFields } from '@ros/domain';
import { describe, expect, it } from 'vitest';
import { type FieldLabels, PDF_LABELS } from './labels.js';

/**
 * A field's PDF label is keyed by its catalogue name (issue 34): every field the PDF prints a row
 * of has one in each language, and nothing else does (TypeScript says the first, for FIELDS, as
 * PdfLabels' `fields` is a record over PrintedFieldName; this says it at run time too).
 */
describe('the PDF labels and the field catalogue', () => {
  for (const lang of ['cs', 'en'] as const) {
    const labels = PDF_LABELS[lang];

    it(`label every printed field of the catalogue by its name, and only those (${lang})`, () => {
      expect(Object.keys(labels.fields).sort()).toEqual(printedFields().sort());
      for (const name of printedFields()) expect((labels.fields as FieldLabels)[name], name).toMatch(/\S/);
    });

    it(`head every section of the form by its name (${lang})`, () => {
      for (const { name } of FORM_SECTIONS) expect(labels.sections[name], name).toMatch(/\S/);
    });

    it(`label every column of the rows fields (${lang})`, () => {
      // A past activity's from and to are one row, its period.
      const { from, to, ...activity } = FIELDS.past_activities.columns;
      expect(from && to).toBeTruthy();
      expect(Object.keys(labels.columns.past_activities).sort()).toEqual(
        ['period', ...Object.keys(activity)].sort(),
      );
      expect(Object.keys(labels.columns.abroad_stay).sort()).toEqual(
        Object.keys(FIELDS.abroad_stay.columns).sort(),
      );
      for (const text of [
        ...Object.values(labels.columns.past_activities),
        ...Object.values(labels.columns.abroad_stay),
      ])
        expect(text).toMatch(/\S/);
    });
  }
});

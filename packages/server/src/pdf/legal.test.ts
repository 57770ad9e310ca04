import {
  attachmentNotes,
  currentLegalVersion,
  LEGAL_TEXT_VERSIONS,
  type LegalTextVersion,
  legalStatements,
  requiredAttachments,
} from '@ros/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findRequest, legalVariant, type StoredRequest, storeRequest } from '../requests/repository.js';
import { agreedTexts, newApplicant } from '../test/applicant.js';
import { createTestDb, type TestDb, testDbKinds } from '../test/databases.js';
import { normalise, pdfText } from '../test/pdfText.js';
import { buildPdfModel, type CodeNames } from './model.js';
import { renderPdf } from './render.js';

/**
 * Issue 22: the PDF prints, word for word, the sentences the confirmation dialog showed (both
 * read @ros/domain's legal texts: the dialog renders legalStatements, see ConfirmDialog.tsx and
 * e2e/legal.spec.ts), and a stored request keeps the texts of its version.
 */

const names: CodeNames = {
  country: (c) => c,
  listItem: (_l, c) => c,
  municipality: (c) => c,
  district: (c) => c,
};

function request(over: Partial<StoredRequest>): StoredRequest {
  const values = newApplicant({
    telephone: '603123456',
    dial_code: '+420',
    birth_number: '',
    send_notifications_email: true,
    send_notifications_phone: true,
  });
  return {
    id: 'z'.repeat(24),
    reference: 'ROS-2026-000022',
    language: 'cs',
    duplicate: false,
    viaNia: false,
    values,
    personKey: null,
    idempotencyKey: null,
    bodyHash: '',
    legal: agreedTexts(values),
    createdAt: '2026-11-26T10:00:00.000Z',
    ...over,
  };
}

describe('the PDF holds the sentences the dialog showed', { timeout: 120_000 }, () => {
  for (const language of ['cs', 'en'] as const) {
    for (const viaNia of [false, true]) {
      for (const duplicate of [false, true]) {
        const name = `${language}, ${viaNia ? 'NIA' : 'paper'}, ${duplicate ? 'duplicate' : 'new'}`;
        it(name, async () => {
          const r = request({
            language,
            viaNia,
            duplicate,
            values: { ...request({}).values, duplicate_type: duplicate ? ['POSKOZENI'] : [] },
          });
          const text = await pdfText(await renderPdf(buildPdfModel(r, names)));
          const shown = legalStatements(currentLegalVersion(), language, legalVariant(r), r.values);
          expect(shown).toHaveLength(5);
          for (const s of shown) expect(text, s.key).toContain(normalise(s.text));
          // The other channel's signature sentence is not there.
          const other = legalStatements(
            currentLegalVersion(),
            language,
            { channel: viaNia ? 'paper' : 'nia', duplicate },
            r.values,
          )[0];
          expect(text).not.toContain(normalise(other?.text ?? 'x'));
          // The attachments notes (no birth number: the identity document; stays abroad in a new request).
          const notes = attachmentNotes(
            currentLegalVersion(),
            language,
            requiredAttachments(r.values, duplicate),
          );
          expect(notes.length).toBe(duplicate ? 1 : 2);
          for (const note of notes) expect(text).toContain(normalise(note));
        });
      }
    }
  }
});

/** A later version, as a text change would add it. */
function withV2(): LegalTextVersion[] {
  const v1 = LEGAL_TEXT_VERSIONS[0];
  if (!v1) throw new Error('no version 1');
  const changed = (lang: 'cs' | 'en') => ({
    ...v1.texts[lang],
    purpose: `${lang === 'cs' ? 'Nový text' : 'A new text'} of version 2 on the purpose.`,
    signature: { paper: 'Version 2 paper signature.', nia: 'Version 2 NIA signature.' },
  });
  return [v1, { version: '2', since: '2027-01-01', texts: { cs: changed('cs'), en: changed('en') } }];
}

for (const kind of await testDbKinds()) {
  describe(`a stored request keeps the texts of its version (${kind})`, { timeout: 120_000 }, () => {
    let t: TestDb;
    beforeAll(async () => {
      t = await createTestDb(kind);
    });
    afterAll(async () => {
      await t?.cleanup();
    });

    it('stored with version 1, printed with version 1 after version 2 is added', async () => {
      const values = newApplicant({ send_notifications_email: false });
      const stored = await storeRequest(t.db, {
        language: 'en',
        duplicate: false,
        viaNia: false,
        values,
        personKey: 'rc:test',
        idempotencyKey: null,
        bodyHash: 'd'.repeat(64),
        legal: { version: '1', ticked: { ...agreedTexts(values).ticked, notify_email: false } },
      });
      if (!('request' in stored)) throw new Error('not stored');
      const back = await findRequest(t.db.kysely, stored.request.id);
      if (!back) throw new Error('not found');
      expect(back.legal).toEqual({
        version: '1',
        ticked: { signature: true, affidavit: true, purpose: true, notify_email: false, notify_phone: false },
      });

      const versions = withV2();
      const model = buildPdfModel(back, names, versions);
      const text = await pdfText(await renderPdf(model));
      const v1 = legalStatements('1', 'en', legalVariant(back), back.values, versions);
      for (const s of v1) expect(text).toContain(normalise(s.text));
      expect(text).not.toContain('Version 2 paper signature.');
      expect(text).not.toContain('of version 2 on the purpose');
      // The boxes as ticked: the e-mail consent was not.
      expect(model.declarations.items.map((i) => i.checked)).toEqual([true, true, true, false, false]);

      // A request given version 2 prints version 2.
      const v2 = buildPdfModel({ ...back, legal: { ...back.legal, version: '2' } }, names, versions);
      expect(v2.declarations.items[0]?.text).toBe('Version 2 paper signature.');
    });

    it('reads a request stored before the version was recorded (migration 0012) as version 1', async () => {
      const values = newApplicant({ email: 'old@example.cz', send_notifications_phone: false });
      const stored = await storeRequest(t.db, {
        language: 'cs',
        duplicate: false,
        viaNia: false,
        values,
        personKey: 'rc:old',
        idempotencyKey: null,
        bodyHash: 'e'.repeat(64),
        legal: agreedTexts(values),
      });
      if (!('request' in stored)) throw new Error('not stored');
      await t.db.kysely
        .updateTable('requests')
        .set({ legal_version: null, declarations: null })
        .where('id', '=', stored.request.id)
        .execute();
      const back = await findRequest(t.db.kysely, stored.request.id);
      expect(back?.legal).toEqual({
        version: '1',
        ticked: { signature: true, affidavit: true, purpose: true, notify_email: true, notify_phone: false },
      });
    });
  });
}

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../context.js';
import { changeStatus } from '../intake/status.js';
import { buildPdfModel, loadCodeNames } from '../pdf/model.js';
import { eraseRequests } from '../retention/erase.js';
import { newApplicant } from '../test/applicant.js';
import { createTestDb, type TestDb, testDbKinds } from '../test/databases.js';
import { storedRequest } from '../test/requests.js';
import { seedFormData } from '../test/seed.js';
import { requestIdOf, requestView } from './requestView.js';

for (const kind of await testDbKinds()) {
  describe(`a request as a clerk reads it (${kind})`, { timeout: 60_000 }, () => {
    let t: TestDb;
    beforeAll(async () => {
      t = await createTestDb(kind);
      const ctx: AppContext = { config: t.config, db: t.db, version: 'test' };
      await seedFormData(ctx);
    });
    afterAll(async () => {
      await t?.cleanup();
    });
    const values = newApplicant({
      past_activities: [{ from: '01/2015', to: '12/2019', type: '1', field1: 'Letiště', field2: 'Ostraha' }],
    });

    it('every field with its Czech label and its value as the PDF prints it, codes by their names', async () => {
      const r = await storedRequest(t.db, values);
      const view = await requestView(t.db, r.reference.toLowerCase());
      if (!view) throw new Error('no view');
      // The PDF's own rows (a Czech request's PDF), a group as a section of its own.
      const pdf = buildPdfModel(r, await loadCodeNames(t.db, r.values, 'cs'));
      expect(view.sections.map((s) => s.title)).toEqual(
        pdf.sections.flatMap((s) => [s.heading, ...s.groups.map((g) => `${s.heading} – ${g.heading}`)]),
      );
      expect(view.sections.flatMap((s) => s.rows)).toEqual(
        pdf.sections.flatMap((s) => [...s.rows, ...s.groups.flatMap((g) => g.rows)]),
      );
      const value = (label: string) =>
        view.sections.flatMap((s) => s.rows).find((row) => row.label === label)?.value;
      const nameOf = async (table: 'municipalities' | 'districts', code: string) =>
        (
          await t.db.kysely
            .selectFrom(table)
            .select('name')
            .where('code', '=', code)
            .executeTakeFirstOrThrow()
        ).name;
      expect(value('Pohlaví')).toBe('Žena');
      expect(value('Místo narození')).toBe(await nameOf('municipalities', '554782'));
      expect(value('Okres narození')).toBe(await nameOf('districts', '40924'));
      expect(value('Stát narození')).toBe('Česká republika');
      expect(value('Typ dokladu totožnosti')).toMatch(/^Občanský průkaz/);
      const shown = JSON.stringify(view.sections);
      for (const code of ['554782', '40924', 'OP_CR', '"CZ"', '"SK"']) expect(shown).not.toContain(code);
      expect(view.sections.find((s) => s.title.endsWith('Činnost 1'))?.rows[1]?.value).not.toBe('1');
      expect(view).toMatchObject({
        reference: r.reference,
        status: 'new',
        viaNia: false,
        language: 'cs',
        duplicate: false,
        createdAt: r.createdAt,
        receivedAt: null,
        erased: false,
        legal: {
          version: r.legal.version,
          items: [
            { key: 'signature', ticked: true },
            { key: 'affidavit', ticked: true },
            { key: 'purpose', ticked: true },
            { key: 'notify_email', ticked: false },
            { key: 'notify_phone', ticked: false },
          ],
        },
      });
      expect(view.legal?.items.every((i) => i.text.length > 20)).toBe(true);
      const en = await requestView(t.db, r.reference, { lang: 'en' });
      expect(en?.sections[0]?.title).toBe('Personal data');
    });

    it('the history with notes, certificate and correction flag, and the notifications', async () => {
      const r = await storedRequest(t.db, { ...values, send_notifications_email: true });
      await changeStatus(t.db, r.reference, { status: 'received' });
      await changeStatus(t.db, r.reference, { status: 'documents_needed', note: 'Pošlete pas.' });
      const id = (await requestIdOf(t.db, r.reference)) as string;
      expect(id).toBe(r.id);
      const [, last] = await t.db.kysely
        .selectFrom('request_status_history')
        .select('id')
        .where('request_id', '=', id)
        .orderBy('id')
        .execute();
      await t.db.kysely
        .updateTable('request_status_history')
        .set({ correction: 1 })
        .where('id', '=', Number(last?.id))
        .execute();
      const view = await requestView(t.db, r.reference);
      expect(view?.history).toEqual([
        {
          id: expect.any(Number),
          status: 'received',
          at: expect.any(String),
          note: null,
          certificate: null,
          correction: false,
        },
        {
          id: Number(last?.id),
          status: 'documents_needed',
          at: expect.any(String),
          note: 'Pošlete pas.',
          certificate: null,
          correction: true,
        },
      ]);
      expect(view?.notices.map((n) => [n.channel, n.state, n.historyId])).toEqual([
        ['email', 'pending', view?.history[0]?.id],
        ['email', 'pending', Number(last?.id)],
      ]);
    });

    it('after the erasure only the reference, statuses and dates; unknown and malformed references are null', async () => {
      const r = await storedRequest(t.db, { ...values, send_notifications_email: true });
      await changeStatus(t.db, r.reference, { status: 'received' });
      await changeStatus(t.db, r.reference, { status: 'documents_needed', note: 'Pošlete pas.' });
      await eraseRequests(t.db, [r.reference], new Date());
      const view = await requestView(t.db, r.reference);
      expect(view).toMatchObject({
        reference: r.reference,
        status: 'documents_needed',
        erased: true,
        sections: [],
        legal: null,
        notices: [],
        receivedAt: expect.any(String),
      });
      expect(view?.history.map((h) => [h.status, h.note, h.certificate])).toEqual([
        ['received', null, null],
        ['documents_needed', null, null],
      ]);
      expect(JSON.stringify(view)).not.toMatch(/Žofie|Řeháková|Pošlete|example\.cz/);
      expect(await requestView(t.db, 'ROS-2099-999999')).toBeNull();
      expect(await requestView(t.db, "ROS-2026-1' or 1=1")).toBeNull();
      expect(await requestIdOf(t.db, 'nonsense')).toBeNull();
    });
  });
}

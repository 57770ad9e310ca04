import { defaultFormValues } from '@ros/domain';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AGREED } from '../test/applicant.js';
import { createTestDb, type TestDb, testDbKinds } from '../test/databases.js';
import { type NewRequest, storeRequest } from './repository.js';
import { storeRequestWithMail } from './store.js';

const input = (over: Partial<NewRequest> = {}): NewRequest => ({
  language: 'cs',
  duplicate: false,
  viaNia: true,
  values: { ...defaultFormValues(), first_name: 'Alžběta', last_name: 'Testová', email: 'a@example.cz' },
  personKey: 'test:1',
  idempotencyKey: null,
  bodyHash: 'b'.repeat(64),
  legal: AGREED,
  ...over,
});

for (const kind of await testDbKinds()) {
  describe(`a request and its confirmation e-mail are stored together (${kind})`, () => {
    let t: TestDb;
    beforeEach(async () => {
      t = await createTestDb(kind);
    });
    afterEach(async () => t?.cleanup());

    const count = async (table: 'requests' | 'request_mails') =>
      Number(
        (
          await t.db.kysely
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );

    it('queues the mail exactly once: with the request, not again for a retry', async () => {
      const keyed = input({ idempotencyKey: 'retry-key' });
      const first = await storeRequestWithMail(t.db, { ...keyed, mail: true });
      const retry = await storeRequestWithMail(t.db, { ...keyed, mail: true });
      if (!('request' in first) || !('request' in retry)) throw new Error('not stored');
      expect(first.created).toBe(true);
      expect(retry).toEqual({ request: first.request, created: false });
      expect(await count('requests')).toBe(1);
      const mails = await t.db.kysely.selectFrom('request_mails').select(['request_id', 'status']).execute();
      expect(mails).toEqual([{ request_id: first.request.id, status: 'pending' }]);
    });

    it('stores a request sent after NIA sign-in as received on arrival, with its history row; a paper one as new (issue 38)', async () => {
      const at = new Date('2026-11-30T09:15:00.000Z');
      const nia = await storeRequestWithMail(t.db, { ...input(), mail: true }, at);
      const paper = await storeRequestWithMail(t.db, { ...input({ viaNia: false }), mail: false }, at);
      if (!('request' in nia) || !('request' in paper)) throw new Error('not stored');
      const row = (id: string) =>
        t.db.kysely
          .selectFrom('requests')
          .select(['status', 'created_at', 'received_at'])
          .where('id', '=', id)
          .executeTakeFirstOrThrow();
      const history = (id: string) =>
        t.db.kysely
          .selectFrom('request_status_history')
          .select(['status', 'at', 'note', 'certificate', 'correction'])
          .where('request_id', '=', id)
          .execute();
      expect(await row(nia.request.id)).toEqual({
        status: 'received',
        created_at: at.toISOString(),
        received_at: at.toISOString(),
      });
      expect(await history(nia.request.id)).toEqual([
        { status: 'received', at: at.toISOString(), note: null, certificate: null, correction: 0 },
      ]);
      expect(await row(paper.request.id)).toMatchObject({ status: 'new', received_at: null });
      expect(await history(paper.request.id)).toEqual([]);
      // No status notification for the receipt: the confirmation e-mail is the news.
      const notices = await t.db.kysely.selectFrom('status_notices').select('id').execute();
      expect(notices).toEqual([]);
      // A retry changes nothing and writes no second row.
      const keyed = input({ idempotencyKey: 'nia-retry' });
      const first = await storeRequestWithMail(t.db, { ...keyed, mail: true }, at);
      await storeRequestWithMail(t.db, { ...keyed, mail: true }, new Date(at.getTime() + 60_000));
      if (!('request' in first)) throw new Error('not stored');
      expect(await history(first.request.id)).toHaveLength(1);
    });

    it('stores no NIA request when its receipt cannot be written', async () => {
      // status_notices refers to it: PostgreSQL drops that constraint with it.
      await sql
        .raw(`drop table request_status_history${kind === 'postgres' ? ' cascade' : ''}`)
        .execute(t.db.kysely);
      await expect(storeRequestWithMail(t.db, { ...input(), mail: true })).rejects.toThrow();
      expect([await count('requests'), await count('request_mails')]).toEqual([0, 0]);
    });

    it('queues no mail when none is asked for', async () => {
      await storeRequestWithMail(t.db, { ...input({ viaNia: false }), mail: false });
      expect([await count('requests'), await count('request_mails')]).toEqual([1, 0]);
    });

    it('stores no request when its mail cannot be queued', async () => {
      await sql`drop table request_mails`.execute(t.db.kysely);
      await expect(storeRequestWithMail(t.db, { ...input(), mail: true })).rejects.toThrow();
      expect(await count('requests')).toBe(0);
    });

    it('rolls the request back when the work alongside it fails', async () => {
      const failing = async () => {
        throw new Error('alongside failed');
      };
      await expect(storeRequest(t.db, input(), new Date(), failing)).rejects.toThrow('alongside failed');
      expect(await count('requests')).toBe(0);
    });
  });
}

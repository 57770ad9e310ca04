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

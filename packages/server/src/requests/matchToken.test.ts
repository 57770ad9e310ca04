import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoPersons } from '../demo/persons.js';
import { createTestDb, type TestDb, testDbKinds } from '../test/databases.js';
import { issueMatchToken, lookUpMatch, MATCH_TOKEN_HOURS, provedBy, spendMatch } from './matchToken.js';

for (const kind of await testDbKinds()) {
  describe(`match tokens (${kind})`, () => {
    let t: TestDb;
    beforeAll(async () => {
      t = await createTestDb(kind);
      await seedDemoPersons(t.db);
    });
    afterAll(async () => t?.cleanup());

    const proves = async (token: unknown, now?: Date, key?: string | null) =>
      provedBy(await lookUpMatch(t.db, token, now), key);

    it('proves the person until it expires; only its hash is stored', async () => {
      const now = new Date('2026-11-26T08:00:00Z');
      const token = await issueMatchToken(t.db, 1001, now);
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(await proves(token, now)).toBe(1001);
      const later = new Date(now.getTime() + (MATCH_TOKEN_HOURS * 3600 - 1) * 1000);
      expect(await proves(token, later)).toBe(1001);
      const expired = new Date(now.getTime() + MATCH_TOKEN_HOURS * 3_600_000 + 1000);
      expect(await proves(token, expired)).toBeNull();
      const rows = await t.db.kysely.selectFrom('search_matches').select('token_hash').execute();
      expect(rows.map((r) => r.token_hash)).not.toContain(token);
    });

    it('proves nothing for an unknown, malformed or non-string token', async () => {
      for (const bad of ['A'.repeat(43), 'short', '', null, 42, { a: 1 }, 'A'.repeat(44)]) {
        expect(await proves(bad)).toBeNull();
      }
    });

    it('is spent once; then it proves its person only to a retry of the request that spent it', async () => {
      const token = await issueMatchToken(t.db, 1002);
      const match = await lookUpMatch(t.db, token);
      if (!match) throw new Error('no match row');
      const request = 'r'.repeat(24);
      await t.db.kysely
        .insertInto('requests')
        .values({
          id: request,
          reference: 'ROS-2026-900001',
          language: 'cs',
          duplicate: 0,
          via_nia: 0,
          payload: '{}',
          person_key: 'person:1002',
          idempotency_key: 'key-1',
          body_hash: 'x',
          created_at: new Date().toISOString(),
        })
        .execute();
      const spend = () => t.db.kysely.transaction().execute((trx) => spendMatch(trx, match.hash, request));
      expect(await spend()).toBe(true);
      expect(await spend()).toBe(false);
      expect(await proves(token)).toBeNull();
      expect(await proves(token, undefined, 'key-2')).toBeNull();
      expect(await proves(token, undefined, 'key-1')).toBe(1002);
    });
  });
}

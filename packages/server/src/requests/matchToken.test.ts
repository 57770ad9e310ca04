import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoPersons } from '../demo/persons.js';
import { createTestDb, type TestDb, testDbKinds } from '../test/databases.js';
import { issueMatchToken, MATCH_TOKEN_HOURS, matchedPerson } from './matchToken.js';

for (const kind of await testDbKinds()) {
  describe(`match tokens (${kind})`, () => {
    let t: TestDb;
    beforeAll(async () => {
      t = await createTestDb(kind);
      await seedDemoPersons(t.db);
    });
    afterAll(async () => t?.cleanup());

    it('proves the person until it expires; only its hash is stored', async () => {
      const now = new Date('2026-11-26T08:00:00Z');
      const token = await issueMatchToken(t.db, 1001, now);
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(await matchedPerson(t.db, token, now)).toBe(1001);
      const later = new Date(now.getTime() + (MATCH_TOKEN_HOURS * 3600 - 1) * 1000);
      expect(await matchedPerson(t.db, token, later)).toBe(1001);
      const expired = new Date(now.getTime() + MATCH_TOKEN_HOURS * 3_600_000 + 1000);
      expect(await matchedPerson(t.db, token, expired)).toBeNull();
      const rows = await t.db.kysely.selectFrom('search_matches').select('token_hash').execute();
      expect(rows.map((r) => r.token_hash)).not.toContain(token);
    });

    it('proves nothing for an unknown, malformed or non-string token', async () => {
      for (const bad of ['A'.repeat(43), 'short', '', null, 42, { a: 1 }, 'A'.repeat(44)]) {
        expect(await matchedPerson(t.db, bad)).toBeNull();
      }
    });
  });
}

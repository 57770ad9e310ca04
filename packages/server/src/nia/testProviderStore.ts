import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Db } from '../db/database.js';
import type { Database } from '../db/schema.js';

/**
 * The local NIA-like provider's state in the database (migration 0008), so that several
 * instances behind a load balancer act as one provider: a sign-in started on one instance is
 * finished on another. `DbAdapter` is oidc-provider's storage adapter (its interactions, sessions,
 * codes, grants and tokens); `sharedProviderKeys` gives every instance the same signing key and
 * cookie keys, made once per database. Only the test provider uses this: it is a test aid, and
 * the real NIA keeps its own state.
 */

type Payload = Record<string, unknown> & { grantId?: string; userCode?: string; uid?: string };

/** Models whose rows belong to a grant (revokeByGrantId removes them together). */
const GRANTABLE = new Set([
  'AccessToken',
  'AuthorizationCode',
  'RefreshToken',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
]);

const nowMs = () => Date.now();

export function testProviderAdapter(db: Db) {
  const k = db.kysely as Kysely<Database>;
  return class DbAdapter {
    constructor(readonly model: string) {}

    async upsert(id: string, payload: Payload, expiresIn?: number): Promise<void> {
      const expiresAt = typeof expiresIn === 'number' ? nowMs() + expiresIn * 1000 : null;
      const row = {
        model: this.model,
        id,
        payload: JSON.stringify(payload),
        grant_id: GRANTABLE.has(this.model) ? (payload.grantId ?? null) : null,
        user_code: payload.userCode ?? null,
        uid: this.model === 'Session' ? (payload.uid ?? null) : null,
        expires_at: expiresAt,
        consumed_at: null,
      };
      await k
        .insertInto('nia_test_provider_state')
        .values(row)
        .onConflict((oc) =>
          oc.columns(['model', 'id']).doUpdateSet({
            payload: row.payload,
            grant_id: row.grant_id,
            user_code: row.user_code,
            uid: row.uid,
            expires_at: row.expires_at,
          }),
        )
        .execute();
      // Keep the table small: sessions are written at every sign-in, a good moment to sweep.
      if (this.model === 'Session') {
        await k.deleteFrom('nia_test_provider_state').where('expires_at', '<', nowMs()).execute();
      }
    }

    async findWhere(column: 'id' | 'uid' | 'user_code', value: string): Promise<Payload | undefined> {
      const row = await k
        .selectFrom('nia_test_provider_state')
        .select(['payload', 'expires_at', 'consumed_at'])
        .where('model', '=', this.model)
        .where(column, '=', value)
        .executeTakeFirst();
      if (!row || (row.expires_at !== null && Number(row.expires_at) <= nowMs())) return undefined;
      const payload = JSON.parse(row.payload) as Payload;
      if (row.consumed_at !== null) payload.consumed = Math.floor(Number(row.consumed_at) / 1000);
      return payload;
    }

    find(id: string) {
      return this.findWhere('id', id);
    }

    findByUid(uid: string) {
      return this.findWhere('uid', uid);
    }

    findByUserCode(userCode: string) {
      return this.findWhere('user_code', userCode);
    }

    async consume(id: string): Promise<void> {
      await k
        .updateTable('nia_test_provider_state')
        .set({ consumed_at: nowMs() })
        .where('model', '=', this.model)
        .where('id', '=', id)
        .execute();
    }

    async destroy(id: string): Promise<void> {
      await k
        .deleteFrom('nia_test_provider_state')
        .where('model', '=', this.model)
        .where('id', '=', id)
        .execute();
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await k.deleteFrom('nia_test_provider_state').where('grant_id', '=', grantId).execute();
    }
  };
}

export interface ProviderKeys {
  /** The ID-token signing key (private JWK). */
  jwk: Record<string, unknown>;
  /** Keys that sign the provider's cookies. */
  cookieKeys: string[];
}

/**
 * The provider's keys, the same on every instance: the first instance to ask makes them and
 * stores them; an instance that loses the race reads the winner's.
 */
export async function sharedProviderKeys(db: Db): Promise<ProviderKeys> {
  const name = 'nia-test-provider-keys';
  const k = db.kysely as Kysely<Database>;
  const existing = await k
    .selectFrom('shared_secrets')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirst();
  if (existing) return JSON.parse(existing.value) as ProviderKeys;
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const made: ProviderKeys = {
    jwk: { ...privateKey.export({ format: 'jwk' }), kid: 'nia-test', use: 'sig', alg: 'RS256' },
    cookieKeys: [randomBytes(32).toString('base64url')],
  };
  await k
    .insertInto('shared_secrets')
    .values({ name, value: JSON.stringify(made), created_at: new Date().toISOString() })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const stored = await k
    .selectFrom('shared_secrets')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return JSON.parse(stored.value) as ProviderKeys;
}

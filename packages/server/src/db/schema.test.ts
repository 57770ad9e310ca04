import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb, testDbKinds } from '../test/databases.js';
import type { Database } from './schema.js';

/**
 * Every table and column of db/schema.ts as a value. The type makes the compiler hold it to the
 * interfaces (a missing or extra table or column does not compile); the test holds it to what the
 * migrations make. Together: a migration that adds a table or column the schema does not type
 * (or the other way round) fails here.
 */
type Columns = { [T in keyof Database]: { [C in keyof Database[T]]-?: true } };

const SCHEMA: Columns = {
  countries: { code: true, code_csu: true, name_cz: true, name_en: true },
  districts: { code: true, name: true },
  municipalities: { code: true, name: true, long_name: true, district: true },
  code_lists: { list: true, code: true, name_cz: true, name_en: true, disabled: true, sort: true },
  reference_imports: { source: true, imported_at: true, detail: true },
  persons: {
    id: true,
    data: true,
    first_name_norm: true,
    last_name_norm: true,
    birth_number_norm: true,
    birth_date: true,
    nia_identifier: true,
    aifo: true,
    created_at: true,
    demo: true,
  },
  person_documents: { person_id: true, type: true, number_norm: true },
  records: {
    id: true,
    person_id: true,
    stav: true,
    platnost_do: true,
    a1a3_valid_until: true,
    a2_valid_until: true,
    first_name: true,
    last_name: true,
    created_at: true,
    revoked_at: true,
    demo: true,
  },
  records_version: { id: true, version: true },
  requests: {
    id: true,
    reference: true,
    language: true,
    duplicate: true,
    via_nia: true,
    payload: true,
    person_key: true,
    idempotency_key: true,
    body_hash: true,
    created_at: true,
    status: true,
    received_at: true,
    erased_at: true,
    nia_identifier: true,
    legal_version: true,
    declarations: true,
    search_name: true,
    birth_date: true,
    birth_number_key: true,
  },
  counters: { name: true, value: true },
  used_bot_tokens: { token_hash: true, expires_at: true },
  sso_sessions: { id: true, status: true, from_page: true, data: true, created_at: true, expires_at: true },
  request_mails: {
    request_id: true,
    status: true,
    attempts: true,
    next_attempt_at: true,
    last_error: true,
    sent_at: true,
    created_at: true,
  },
  request_status_history: {
    id: true,
    request_id: true,
    status: true,
    at: true,
    note: true,
    certificate: true,
    correction: true,
  },
  status_notices: {
    id: true,
    request_id: true,
    history_id: true,
    channel: true,
    status: true,
    attempts: true,
    next_attempt_at: true,
    last_error: true,
    sent_at: true,
    created_at: true,
  },
  search_matches: { token_hash: true, person_id: true, created_at: true, expires_at: true, request_id: true },
  intake_tokens: {
    name: true,
    token_hash: true,
    scopes: true,
    created_at: true,
    created_by: true,
    last_used_at: true,
    revoked_at: true,
  },
  audit_log: { id: true, at: true, actor: true, action: true, target: true, outcome: true, detail: true },
  leases: { name: true, holder: true, until: true },
  nia_test_provider_state: {
    model: true,
    id: true,
    payload: true,
    grant_id: true,
    user_code: true,
    uid: true,
    expires_at: true,
    consumed_at: true,
  },
  shared_secrets: { name: true, value: true, created_at: true },
  rate_limit_hits: { key: true, window_start: true, hits: true, expires_at: true },
  instances: { id: true, started_at: true, seen_at: true },
  console_sessions: {
    id: true,
    subject: true,
    name: true,
    role: true,
    csrf: true,
    created_at: true,
    last_seen_at: true,
    expires_at: true,
  },
};

const typed = (): string[] =>
  Object.entries(SCHEMA)
    .flatMap(([table, columns]) => Object.keys(columns).map((c) => `${table}.${c}`))
    .sort();

/** Kysely's own bookkeeping, not ours. */
const MIGRATOR_TABLES = new Set(['kysely_migration', 'kysely_migration_lock']);

async function migrated(t: TestDb): Promise<string[]> {
  const db = t.db.kysely;
  const rows =
    t.db.dialect === 'postgres'
      ? (
          await sql<{ t: string; c: string }>`select table_name as t, column_name as c
            from information_schema.columns where table_schema = current_schema()`.execute(db)
        ).rows
      : (
          await sql<{ t: string; c: string }>`select m.name as t, p.name as c
            from sqlite_master m join pragma_table_info(m.name) p
            where m.type = 'table' and m.name not like 'sqlite_%'`.execute(db)
        ).rows;
  return rows
    .filter((r) => !MIGRATOR_TABLES.has(r.t))
    .map((r) => `${r.t}.${r.c}`)
    .sort();
}

for (const kind of await testDbKinds()) {
  describe(`db/schema.ts types what the migrations make (${kind})`, () => {
    let t: TestDb;
    beforeAll(async () => {
      t = await createTestDb(kind);
    });
    afterAll(async () => t?.cleanup());

    it('every table and column, no more, no less', async () => {
      expect(await migrated(t)).toEqual(typed());
    });
  });
}

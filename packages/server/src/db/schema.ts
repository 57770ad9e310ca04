import type { Generated, Insertable, Selectable } from 'kysely';

/**
 * Every table the migrations make, typed once (db/schema.test.ts compares this with the tables
 * and columns the migrations leave on SQLite and PostgreSQL). Dates are ISO strings
 * ('YYYY-MM-DD', timestamps in ISO 8601 UTC) so that SQLite and PostgreSQL store and sort them
 * the same way; JSON is stored as text. Code that needs a row type derives it from here
 * (`Selectable<…>`, `Insertable<…>`: the row types at the end).
 */
export interface Database {
  countries: CountryTable;
  districts: DistrictTable;
  municipalities: MunicipalityTable;
  code_lists: CodeListTable;
  reference_imports: ReferenceImportTable;
  persons: PersonTable;
  person_documents: PersonDocumentTable;
  records: RecordTable;
  records_version: RecordsVersionTable;
  requests: RequestTable;
  counters: CounterTable;
  used_bot_tokens: UsedBotTokenTable;
  sso_sessions: SsoSessionTable;
  request_mails: RequestMailTable;
  search_matches: SearchMatchTable;
  intake_tokens: IntakeTokenTable;
  audit_log: AuditLogTable;
  leases: LeaseTable;
  nia_test_provider_state: NiaTestProviderStateTable;
  shared_secrets: SharedSecretTable;
  rate_limit_hits: RateLimitHitTable;
  instances: InstanceTable;
  request_status_history: RequestStatusHistoryTable;
  status_notices: StatusNoticeTable;
  console_sessions: ConsoleSessionTable;
}

export interface CountryTable {
  code: string;
  code_csu: string;
  name_cz: string;
  name_en: string;
}
export interface DistrictTable {
  code: string;
  name: string;
}
export interface MunicipalityTable {
  code: string;
  name: string;
  long_name: string;
  district: string;
}
/** Small fixed lists (delivery types, document types, …), one row per code. */
export interface CodeListTable {
  list: string;
  code: string;
  name_cz: string;
  name_en: string;
  disabled: number;
  sort: number;
}
export interface ReferenceImportTable {
  source: string;
  imported_at: string;
  detail: string;
}
export interface PersonTable {
  id: Generated<number>;
  /** The person as the register knows it, in the register's Czech field names (JSON). */
  data: string;
  first_name_norm: string;
  last_name_norm: string;
  birth_number_norm: string | null;
  birth_date: string | null;
  /** NIA pseudonymous person identifier for this service (PersonIdentifier claim). */
  nia_identifier: string | null;
  aifo: string | null;
  created_at: string;
  /** 1 = made by the demo seeding (migration 0006): the only rows the demo ever changes. */
  demo: Generated<number>;
}
export interface PersonDocumentTable {
  person_id: number;
  type: string;
  number_norm: string;
}
export interface RecordTable {
  id: number;
  person_id: number | null;
  stav: string;
  /** 'YYYY-MM-DD' */
  platnost_do: string;
  a1a3_valid_until: string | null;
  a2_valid_until: string | null;
  first_name: string;
  last_name: string;
  created_at: string;
  revoked_at: string | null;
  /** 1 = made by the demo seeding (migration 0006): the only rows the demo ever changes. */
  demo: Generated<number>;
}
/** One row, moved on by a trigger at every change of `records` (migration 0003, records/validityIndex.ts). */
export interface RecordsVersionTable {
  id: number;
  version: number | string | bigint;
}
export interface RequestTable {
  id: string;
  reference: string;
  language: string;
  duplicate: number;
  via_nia: number;
  payload: string;
  person_key: string | null;
  idempotency_key: string | null;
  body_hash: string;
  created_at: string;
  // Migration 0007: the authority's side (docs/intake.md).
  /** 'new' until the authority marks the request received, then 'received' and on (@ros/domain REQUEST_STATUSES, migration 0013). */
  status: Generated<string>;
  received_at: string | null;
  /** When the personal data was erased (retention); the row keeps reference, dates and channel. */
  erased_at: string | null;
  /** NIA's PersonIdentifier of the signed-in applicant (requests sent after NIA sign-in). */
  nia_identifier: string | null;
  // Migration 0012 (issue 22): what the applicant agreed to; null in rows stored before it.
  /** The version of the legal texts the dialog showed (@ros/domain legalTexts). */
  legal_version: string | null;
  /** JSON of the five boxes, each true or false (requests/repository.ts storedLegal). */
  declarations: string | null;
  // Migration 0014 (issue 38): what the console's search reads (requests/searchKeys.ts); null after erasure.
  search_name: string | null;
  birth_date: string | null;
  birth_number_key: string | null;
}
export interface CounterTable {
  name: string;
  value: number;
}
export interface UsedBotTokenTable {
  token_hash: string;
  expires_at: string;
}
/**
 * Server-side NIA sessions (migration 0004, nia/sessions.ts): keyed by the sha256 of the cookie
 * value; `data` is the pending sign-in or the signed-in identity (JSON).
 */
export interface SsoSessionTable {
  id: string;
  /** 'pending' or 'active'. */
  status: string;
  from_page: string;
  data: string;
  created_at: string;
  expires_at: string;
}
/** The columns of a queued message's row, in either queue table (life cycle: mail/claim.ts). */
export interface QueueColumns {
  /** mail/table.ts MAIL_STATUSES */
  status: string;
  attempts: number;
  next_attempt_at: string;
  last_error: string | null;
  sent_at: string | null;
  created_at: string;
}
/** One confirmation e-mail per request (migration 0004); its life cycle is in mail/queue.ts. */
export interface RequestMailTable extends QueueColumns {
  request_id: string;
}
/** The search's match tokens (migration 0005, requests/matchToken.ts): only the token's sha256. */
export interface SearchMatchTable {
  token_hash: string;
  person_id: number;
  created_at: string;
  expires_at: string;
  /** The request that spent the token (migration 0010); null while unspent. */
  request_id: string | null;
}

/** Intake API tokens: only the sha256 of a token is stored. */
export interface IntakeTokenTable {
  name: string;
  token_hash: string;
  /** Space-separated scopes. */
  scopes: string;
  created_at: string;
  /** The operator (OS user) who created it. */
  created_by: string;
  last_used_at: string | null;
  revoked_at: string | null;
}
/** Who did what, to which reference, when; never personal data. */
export interface AuditLogTable {
  id: Generated<number>;
  at: string;
  /** 'token:NAME', 'operator:USER' or 'system'. */
  actor: string;
  action: string;
  /** A request reference, 'record:ID', 'person:ID' or 'token:NAME'. */
  target: string | null;
  /** 'ok', 'denied', 'not_found', 'invalid', 'gone', 'error' */
  outcome: string;
  detail: string | null;
}
export interface LeaseTable {
  name: string;
  holder: string;
  until: string;
}
/** The local NIA-like provider's state (migration 0008, nia/testProviderStore.ts). */
export interface NiaTestProviderStateTable {
  model: string;
  id: string;
  payload: string;
  grant_id: string | null;
  user_code: string | null;
  uid: string | null;
  /** Milliseconds since 1970; null = no expiry. */
  expires_at: number | null;
  consumed_at: number | null;
}
/** Secrets made once per database and shared by every instance (migration 0008). */
export interface SharedSecretTable {
  name: string;
  value: string;
  created_at: string;
}
/** Hits per client address and window, shared by the instances (migration 0009, ratelimit/stores.ts). */
export interface RateLimitHitTable {
  key: string;
  window_start: number;
  hits: number;
  expires_at: number;
}
/** One heartbeat row per running instance (migration 0009, instances.ts). */
export interface InstanceTable {
  id: string;
  started_at: string;
  seen_at: number;
}
/** Every status change of a request with its time (migration 0013, intake/status.ts). */
export interface RequestStatusHistoryTable {
  id: Generated<number>;
  request_id: string;
  status: string;
  at: string;
  /** The authority's note to the applicant; erased with the request's personal data. */
  note: string | null;
  /** An issued certificate's validity-check id ('5001x2065'); erased with the personal data. */
  certificate: string | null;
  /** 1 = this row corrects a decision (migration 0014, intake/correction.ts); its note is the reason. */
  correction: Generated<number>;
}
/**
 * A staff member's console session (migration 0014, console/auth/sessions.ts): keyed by the
 * sha256 of the cookie value; the subject and name from the authority's identity provider, the
 * role the console gave them, the CSRF token of its forms.
 */
export interface ConsoleSessionTable {
  id: string;
  subject: string;
  name: string;
  /** 'reader', 'clerk' or 'admin' */
  role: string;
  csrf: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
}
/** A notification of a status change, by e-mail or SMS (migration 0013, notifications/notices.ts). */
export interface StatusNoticeTable extends QueueColumns {
  id: Generated<number>;
  request_id: string;
  history_id: number | string;
  /** 'email' or 'sms' */
  channel: string;
}

// Row types, derived from the tables: what a select returns, what an insert takes.
export type RequestRow = Selectable<RequestTable>;
export type NewRequestRow = Insertable<RequestTable>;
export type RequestMailRow = Selectable<RequestMailTable>;

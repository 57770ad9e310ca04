#!/usr/bin/env node
/**
 * Hostile bodies to the real server over HTTP (issue 33's "done when": 0 5xx over 20,000 fuzzed
 * bodies per database): the built server (`npm run build`) on a fresh SQLite folder and a fresh
 * PostgreSQL database, development mode with the bench's settings (bench/lib.mjs
 * BENCH_SERVER_ENV: per-address limits raised, the bot check's work lowered, the demo people
 * loaded; ROS_RATE_LIMIT_INTAKE raised besides), an intake token made with `ros-admin tokens
 * create`. `--bodies` generated bodies per database go, in equal shares, to POST /api/ros/search,
 * /api/ros/search-birth-number, /api/ros/validate, /api/ros (submit), and the intake API's PUT
 * persons/{id} and PUT records/{id}; beside them (not counted as bodies) the intake's GET
 * requests with generated queries and DELETE persons/{id} + GET requests/{reference} with
 * generated paths, a sixth of a share each.
 *
 * The generators are those of the property tests (packages/server/src/requests/
 * hostileBodies.property.test.ts and packages/server/src/intake/hostileBodies.property.test.ts),
 * written out here in JavaScript because those files are TypeScript test modules (they register
 * vitest suites when imported); one addition, which only a real socket can carry: raw bodies of
 * arbitrary bytes (invalid UTF-8 included). Search and submit bodies carry a solved bot-check
 * token (a token the server did not spend, the body refused before the check, is used again).
 *
 * Counted per database: answers >= 500 (the goal: 0), error answers without a documented code
 * (the answers Node's HTTP parser gives before any route, 431 HEADERS_TOO_LARGE for a generated
 * query over 16 KB, are counted apart: documented in docs/errors.md),
 * bot-check refusals (0 unless the token handling here is wrong), submit answers 201 against the
 * rows in `requests` at the end (a refused body stores nothing), intake bodies accepted although
 * a text in them breaks the text policy, and, read from the database itself at the end, stored
 * texts that break the policy (every string, JSON members included, of requests, persons,
 * person_documents, records and audit_log; multi-line allowed). Exit code 0 only when all are 0.
 *
 *   npm run build && node bench/fuzz.mjs [--database sqlite|postgres|both] [--bodies 20000]
 *                                        [--concurrency 4] [--seed N]
 *
 * A JSON copy (with the first few offending bodies) goes to bench/results/ (not committed).
 * fast-check and better-sqlite3 come from packages/server's dependencies (hoisted in the workspace).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { currentLegalVersion, FORM_FIELDS, followsTextPolicy } from '@ros/domain';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import pg from 'pg';
import { AGREED, applicant, botToken } from './applicant.mjs';
import { BENCH_SERVER_ENV, benchDatabase, spawnServer } from './lib.mjs';

const repo = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({
  options: {
    database: { type: 'string', default: 'both' },
    bodies: { type: 'string', default: '20000' },
    concurrency: { type: 'string', default: '4' },
    seed: { type: 'string' },
  },
});
const BODIES = Number(values.bodies);
const CONCURRENCY = Number(values.concurrency);
const SEED = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
const KINDS = values.database === 'both' ? ['sqlite', 'postgres'] : [values.database];
const INTAKE_SCOPES = [
  'requests:read',
  'requests:receive',
  'requests:status',
  'records:write',
  'persons:write',
];

// ---- The public API's generators (requests/hostileBodies.property.test.ts) ----

const PUBLIC_DOCUMENTED = new Set([
  'INVALID_REQUEST',
  'INVALID_JSON',
  'INVALID_FORM',
  'TIME_NOT_COVERED',
  'PAYLOAD_TOO_LARGE',
  'PERSON_NOT_FOUND',
  'IDEMPOTENCY_KEY_REUSED',
  'INVALID_IDEMPOTENCY_KEY',
]);

const pHostileText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.string({ unit: 'grapheme', maxLength: 60 }),
  fc.constantFrom('\u0000', 'a\u0000b', '\u202Eabc', '\uD800', 'x\uDC00', '\u2066', '\r\n', '__proto__', ''),
  fc.nat({ max: 6000 }).map((n) => 'ř'.repeat(n)),
);
const pHostileValue = fc.oneof(
  { weight: 4, arbitrary: pHostileText },
  { weight: 1, arbitrary: fc.anything({ maxDepth: 4, maxKeys: 8 }) },
  { weight: 1, arbitrary: fc.array(pHostileText, { maxLength: 130 }) },
  {
    weight: 1,
    arbitrary: fc.array(
      fc.record({
        from: pHostileText,
        to: pHostileText,
        type: pHostileText,
        field1: pHostileText,
        field2: pHostileText,
      }),
      { maxLength: 110 },
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom(null, true, 0, -1, 1e308, [], {}) },
);
const pMutated = (base, keys) =>
  fc
    .dictionary(fc.constantFrom(...keys, 'match', 'extra', '__proto__', 'constructor'), pHostileValue, {
      maxKeys: 4,
    })
    .map((changes) => JSON.stringify({ ...base, ...changes }));
/** Any JSON text, text that is not JSON at all, deep nesting; here also raw bytes (any, invalid UTF-8 too). */
const rawText = fc.oneof(
  fc.json({ maxDepth: 6 }),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.nat({ max: 3000 }).map((n) => `${'['.repeat(n)}${']'.repeat(n)}`),
  fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b)),
);

/**
 * The bench's new applicant (bench/applicant.mjs, as load.mjs and crash.mjs send it) with the
 * optional parts filled too (an orientation number, a data mailbox, a stay abroad, notifications),
 * so that mutations reach every field; the dialog's additions in the current legal-text version.
 */
const submitBase = {
  ...applicant(0),
  home_org_num: '5',
  email: 'zofie.rehakova@example.cz',
  data_mailbox: 'abc1234',
  abroad_stay: [{ state: 'SK', reason: 'Studium v Bratislavě' }],
  send_notifications_email: true,
  language: 'cs',
  duplicate: false,
  ...AGREED,
  legal_version: currentLegalVersion(),
};
const searchBase = { first_name: 'Štěpán', last_name: 'Dvořák', type: 'OP_CR', number: '123456789' };
const validateBase = {
  first_name: 'Štěpán',
  last_name: 'Dvořák',
  birth_date: '1985-03-15',
  document_number: '123456789',
  birth_number: '850315/1008',
  duplicate: false,
};

// ---- The intake API's generators (intake/hostileBodies.property.test.ts) ----

const INTAKE_DOCUMENTED = new Set([
  'INVALID_REQUEST',
  'INVALID_JSON',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'NIA_IDENTIFIER_TAKEN',
  'PERSON_NOT_FOUND',
  'REQUEST_NOT_FOUND',
  'NOT_FOUND',
  'BAD_URL',
]);
/**
 * Answered on the socket, before any route (docs/errors.md): a request line or headers over Node's
 * 16 KB (a generated query or path of long text). Only a real socket gets these; the property
 * tests' app.inject never does. Counted apart, not as undocumented.
 */
const SOCKET_CODES = new Set(['HEADERS_TOO_LARGE', 'URI_TOO_LONG']);
const trouble = fc.constantFrom('\u0000', '\uD800', '\uDC00', '\u202E', '\u2066', '\r\n', '\u0085');
const iHostileText = fc.oneof(
  {
    weight: 3,
    arbitrary: fc
      .tuple(fc.string({ maxLength: 8 }), trouble, fc.string({ maxLength: 8 }))
      .map((p) => p.join('')),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 60 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 60 }) },
  { weight: 1, arbitrary: fc.constantFrom('__proto__', '', ' ', 'null') },
  { weight: 1, arbitrary: fc.nat({ max: 3000 }).map((n) => 'ř'.repeat(n)) },
);
const hostileNumber = fc.oneof(
  fc.constantFrom(0, -1, 1.5, 2 ** 31, 3_000_000_000, 2 ** 53, 1e308, Number.MAX_SAFE_INTEGER),
  fc.integer(),
  fc.double(),
);
const iHostileValue = fc.oneof(
  { weight: 4, arbitrary: iHostileText },
  { weight: 2, arbitrary: hostileNumber },
  { weight: 1, arbitrary: fc.anything({ maxDepth: 3, maxKeys: 6 }) },
  { weight: 1, arbitrary: fc.array(iHostileText, { maxLength: 30 }) },
  { weight: 1, arbitrary: fc.constantFrom(null, true, [], {}) },
);
const iMutated = (base, keys) =>
  fc
    .tuple(
      fc.dictionary(fc.constantFrom(...keys), iHostileValue, { maxKeys: 3 }),
      fc.oneof(
        { weight: 6, arbitrary: fc.constant({}) },
        { weight: 1, arbitrary: fc.constantFrom({ extra: 1 }, JSON.parse('{"__proto__":{"x":1}}')) },
      ),
    )
    .map(([changes, extra]) => ({ ...base, ...changes, ...extra }));
const person = { jmeno: 'Zofie', prijmeni: 'Řeháková', rc: '926123/0006', dat_nar: '1992-11-23' };
const PERSON_KEYS = [
  'jmeno',
  'prijmeni',
  'rodne_prijm',
  'misto_nar',
  'ulice',
  'email',
  'nia_identifier',
  'aifo',
  'id',
  'documents',
  'activities',
  'abroad_stay',
  'web_st5_kody',
];
const record = {
  person: { first_name: 'Zofie', last_name: 'Řeháková' },
  stav: 'Ano',
  platnost_do: '2031-01-31',
};
const pathId = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 1, max: 2_000_000_000 }).map(String) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('3000000000', '9007199254740993', '0', '-1', '1e3', '%00', '%E2%80%AE1'),
  },
);
/** Every string a JSON value holds, keys aside. */
const strings = (v) =>
  typeof v === 'string' ? [v] : v !== null && typeof v === 'object' ? Object.values(v).flatMap(strings) : [];
const segment = (s) => [...Buffer.from(s)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
const base64url = (v) => Buffer.from(JSON.stringify(v)).toString('base64url');
const query = fc.record(
  {
    since: fc.oneof(
      iHostileText,
      fc.constantFrom('2026-02-30', '2026-13-01', '2026-03-01T24:00Z', '2026-03-01'),
    ),
    cursor: fc.oneof(
      iHostileText,
      fc.array(iHostileText, { maxLength: 3 }).map(base64url),
      fc.constant('WyJcdTAwMDAiLCJcdTAwMDAiXQ'),
    ),
    limit: fc.oneof(iHostileText, hostileNumber.map(String)),
    status: iHostileText,
  },
  { requiredKeys: [] },
);

// ---- The cases: what one generated value sends ----

/**
 * `gen`: the arbitrary; `send(value)`: the calls it makes, each
 * { method, path, body (string|Buffer|undefined), bot (needs a token), intake (bearer), sent (the
 * parsed body, for the text-policy check of an accepted intake body) }.
 */
const CASES = [
  {
    name: 'POST /api/ros/search',
    body: true,
    gen: fc.oneof(
      pMutated(searchBase, ['first_name', 'last_name', 'type', 'number', 'birth_number', 'duplicate']),
      rawText,
    ),
    send: (b) => [{ method: 'POST', path: '/api/ros/search', body: b, bot: true }],
  },
  {
    name: 'POST /api/ros/search-birth-number',
    body: true,
    gen: fc.oneof(pMutated({ birth_number: '850315/1008' }, ['birth_number']), rawText),
    send: (b) => [{ method: 'POST', path: '/api/ros/search-birth-number', body: b, bot: true }],
  },
  {
    name: 'POST /api/ros/validate',
    body: true,
    gen: fc.oneof(
      pMutated(validateBase, [
        'first_name',
        'last_name',
        'birth_date',
        'municipality',
        'aifo',
        'document_number',
        'birth_number',
      ]),
      rawText,
    ),
    send: (b) => [{ method: 'POST', path: '/api/ros/validate', body: b }],
  },
  {
    name: 'POST /api/ros',
    body: true,
    gen: fc.oneof({ weight: 4, arbitrary: pMutated(submitBase, FORM_FIELDS) }, rawText),
    send: (b) => [{ method: 'POST', path: '/api/ros', body: b, bot: true, submit: true }],
  },
  {
    name: 'PUT /api/intake/v1/persons/{id}',
    body: true,
    gen: fc.tuple(pathId, iMutated(person, PERSON_KEYS)),
    send: ([id, b]) => [
      { method: 'PUT', path: `/api/intake/v1/persons/${id}`, body: JSON.stringify(b), intake: true, sent: b },
    ],
  },
  {
    name: 'PUT /api/intake/v1/records/{id}',
    body: true,
    gen: fc
      .tuple(
        pathId,
        iMutated(record, ['stav', 'platnost_do', 'a1a3', 'a2']),
        iMutated(record.person, ['first_name', 'last_name', 'id']),
      )
      .map(([id, b, p]) => [id, { ...b, person: p }]),
    send: ([id, b]) => [
      { method: 'PUT', path: `/api/intake/v1/records/${id}`, body: JSON.stringify(b), intake: true, sent: b },
    ],
  },
  {
    name: 'GET /api/intake/v1/requests?{query}',
    body: false,
    gen: query,
    send: (q) => [{ method: 'GET', path: `/api/intake/v1/requests?${new URLSearchParams(q)}`, intake: true }],
  },
  {
    name: 'DELETE persons/{id}, GET requests/{ref}',
    body: false,
    gen: fc.tuple(pathId, fc.oneof(iHostileText.map(segment), fc.constantFrom('%ff', '%00', '..%2f'))),
    send: ([id, ref]) => [
      { method: 'DELETE', path: `/api/intake/v1/persons/${id}`, intake: true },
      { method: 'GET', path: `/api/intake/v1/requests/${ref || 'x'}`, intake: true },
    ],
  },
];
const BODY_CASES = CASES.filter((c) => c.body).length;
const SHARE = Math.ceil(BODIES / BODY_CASES);
const countOf = (c) => (c.body ? SHARE : Math.ceil(SHARE / 6));

// ---- Running ----

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** Bot-check tokens the server has not spent: a body refused before the check leaves its token unspent. */
class Tokens {
  constructor(base) {
    this.base = base;
    this.free = [];
    this.solved = 0;
  }
  async take() {
    while (this.free.length > 0) {
      const t = this.free.pop();
      if (Date.now() - t.at < 300_000) return t;
    }
    this.solved++;
    return { value: await botToken(this.base), at: Date.now() };
  }
  giveBack(t) {
    this.free.push(t);
  }
}

/** The documented error code of an error answer, or undefined. */
function errorCodeOf(text) {
  try {
    return JSON.parse(text)?.error?.code;
  } catch {
    return undefined;
  }
}

async function callOnce(base, intakeToken, tokens, c, stats, offenders) {
  const headers = {};
  if (c.body !== undefined) headers['content-type'] = 'application/json';
  if (c.intake) headers.authorization = `Bearer ${intakeToken}`;
  let token;
  if (c.bot) {
    token = await tokens.take();
    headers.recaptcha = token.value;
  }
  let status;
  let text;
  try {
    const r = await fetch(`${base}${c.path}`, { method: c.method, headers, body: c.body });
    status = r.status;
    text = await r.text();
  } catch (err) {
    stats.transportErrors++;
    if (offenders.length < 20)
      offenders.push({ what: 'transport error', call: describe(c), error: String(err) });
    return;
  }
  stats.statuses[status] = (stats.statuses[status] ?? 0) + 1;
  const code = status >= 400 ? errorCodeOf(text) : undefined;
  // A token is spent once the server verified it: every answer but a refusal of the body itself.
  if (token && status >= 400 && status !== 403 && status !== 404 && status !== 409 && status !== 503)
    tokens.giveBack(token);
  if (status >= 500) {
    stats.serverErrors++;
    if (offenders.length < 20)
      offenders.push({ what: `${status}`, call: describe(c), answer: text.slice(0, 500) });
  } else if (status >= 400) {
    if (code?.startsWith('BOT_CHECK_')) stats.botCheckRefusals++;
    else if (SOCKET_CODES.has(code)) stats.socketRefusals++;
    else if (!(c.intake ? INTAKE_DOCUMENTED : PUBLIC_DOCUMENTED).has(code)) {
      stats.undocumented++;
      if (offenders.length < 20)
        offenders.push({
          what: `undocumented ${status} ${code}`,
          call: describe(c),
          answer: text.slice(0, 300),
        });
    }
  } else if (c.sent !== undefined) {
    const bad = strings(c.sent).filter((v) => !followsTextPolicy(v, { multiline: true }));
    if (bad.length > 0) {
      stats.acceptedAgainstPolicy++;
      if (offenders.length < 20) offenders.push({ what: `accepted ${status}`, call: describe(c), bad });
    }
  }
  if (c.submit && status === 201) stats.stored201++;
}

const describe = (c) => ({
  method: c.method,
  path: c.path.slice(0, 300),
  body: Buffer.isBuffer(c.body) ? `bytes:${c.body.toString('base64').slice(0, 600)}` : c.body?.slice(0, 600),
});

/** Every string in the database's stored texts that breaks the text policy (JSON members too). */
async function invalidStoredTexts(db) {
  const TABLES = ['requests', 'persons', 'person_documents', 'records', 'audit_log'];
  const found = [];
  let checked = 0;
  const visit = (table, column, v) => {
    if (typeof v === 'string') {
      const t = v.trim();
      if ((t.startsWith('{') || t.startsWith('[')) && t.length > 1) {
        try {
          return visitJson(table, column, JSON.parse(t));
        } catch {
          // not JSON: checked as text
        }
      }
      checked++;
      if (!followsTextPolicy(v, { multiline: true })) found.push({ table, column, value: v.slice(0, 200) });
    }
  };
  const visitJson = (table, column, v) => {
    if (typeof v === 'string') visit(table, column, v);
    else if (v !== null && typeof v === 'object')
      for (const [k, x] of Object.entries(v)) {
        visit(table, `${column}.${k}`, k);
        visitJson(table, `${column}.${Array.isArray(v) ? '[]' : k}`, x);
      }
  };
  let requests = 0;
  if (db.kind === 'postgres') {
    const c = new pg.Client({ connectionString: db.env.DATABASE_URL });
    await c.connect();
    try {
      for (const table of TABLES) {
        const r = await c.query(`select * from ${table}`);
        if (table === 'requests') requests = r.rows.length;
        for (const row of r.rows) for (const [k, v] of Object.entries(row)) visit(table, k, v);
      }
    } finally {
      await c.end();
    }
  } else {
    const sqlite = new Database(join(db.dataDir, 'ros.sqlite'), { readonly: true, fileMustExist: true });
    try {
      for (const table of TABLES) {
        const rows = sqlite.prepare(`select * from ${table}`).all();
        if (table === 'requests') requests = rows.length;
        for (const row of rows) for (const [k, v] of Object.entries(row)) visit(table, k, v);
      }
    } finally {
      sqlite.close();
    }
  }
  return { requests, checked, found };
}

function intakeToken(env) {
  const r = spawnSync(
    process.execPath,
    [
      join(repo, 'packages/server/dist/cli.js'),
      'tokens',
      'create',
      '--name',
      'fuzz',
      '--scopes',
      INTAKE_SCOPES.join(','),
    ],
    {
      cwd: repo,
      env: { ...process.env, ROS_REFERENCE_DOWNLOAD: 'false', LOG_LEVEL: 'warn', ...env },
      encoding: 'utf8',
    },
  );
  const token = r.stdout.split('\n').find((l) => /^ros_[A-Za-z0-9_-]{43}$/.test(l.trim()));
  if (r.status !== 0 || !token) throw new Error(`ros-admin tokens create failed: ${r.stdout}${r.stderr}`);
  return token.trim();
}

/** The base bodies must pass (so that their mutations reach every check): 201, 200, 200, 201. */
async function sanity(base, intake, tokens) {
  const post = async (path, body, extra = {}) => {
    const r = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...extra },
      body: JSON.stringify(body),
    });
    return r.status;
  };
  const got = {
    submit: await post('/api/ros', submitBase, { recaptcha: (await tokens.take()).value }),
    search: await post('/api/ros/search', searchBase, { recaptcha: (await tokens.take()).value }),
    validate: await post('/api/ros/validate', validateBase),
    intakePerson: (
      await fetch(`${base}/api/intake/v1/persons/777`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${intake}` },
        body: JSON.stringify(person),
      })
    ).status,
  };
  const ok = got.submit === 201 && got.search === 200 && got.validate === 200 && got.intakePerson < 300;
  if (!ok) throw new Error(`a base body is refused: ${JSON.stringify(got)}`);
  return got;
}

async function run(kind) {
  const db = await benchDatabase(kind, 'fuzz');
  const env = { ...BENCH_SERVER_ENV, ROS_RATE_LIMIT_INTAKE: '1000000000', ...db.env };
  const token = intakeToken(env);
  const server = await spawnServer(env);
  const started = performance.now();
  const loadBefore = load();
  const tokens = new Tokens(server.base);
  const perCase = [];
  const offenders = [];
  try {
    await sanity(server.base, token, tokens);
    for (const [i, c] of CASES.entries()) {
      const stats = {
        case: c.name,
        generated: 0,
        calls: 0,
        statuses: {},
        serverErrors: 0,
        transportErrors: 0,
        undocumented: 0,
        socketRefusals: 0,
        botCheckRefusals: 0,
        acceptedAgainstPolicy: 0,
        stored201: 0,
      };
      const n = countOf(c);
      const CHUNK = 200;
      for (let from = 0; from < n; from += CHUNK) {
        const values = fc.sample(c.gen, {
          numRuns: Math.min(CHUNK, n - from),
          seed: SEED + i * 1_000_003 + from,
        });
        const calls = values.flatMap((v) => c.send(v));
        let next = 0;
        await Promise.all(
          Array.from({ length: CONCURRENCY }, async () => {
            while (next < calls.length) {
              const call = calls[next++];
              stats.calls++;
              await callOnce(server.base, token, tokens, call, stats, offenders);
            }
          }),
        );
        stats.generated += values.length;
      }
      perCase.push(stats);
      process.stderr.write(
        `  ${kind}: ${c.name}: ${stats.generated} generated, ${stats.calls} calls, ${stats.serverErrors} >= 500, statuses ${JSON.stringify(stats.statuses)}\n`,
      );
    }
  } finally {
    await server.stop();
  }
  const seconds = Math.round((performance.now() - started) / 1000);
  const loadAfter = load();
  let stored;
  try {
    stored = await invalidStoredTexts(db);
  } finally {
    await db.drop();
  }
  const sum = (k) => perCase.reduce((a, s) => a + s[k], 0);
  const bodies = perCase.filter((_s, i) => CASES[i].body).reduce((a, s) => a + s.generated, 0);
  // The sanity check's submit is one row besides the fuzzed 201s.
  const refusedButStored = stored.requests - 1 - sum('stored201');
  return {
    database: kind,
    seed: SEED,
    bodies,
    callsWithoutBody: perCase.filter((_s, i) => !CASES[i].body).reduce((a, s) => a + s.calls, 0),
    seconds,
    load: { before: loadBefore, after: loadAfter },
    serverErrors: sum('serverErrors'),
    transportErrors: sum('transportErrors'),
    undocumented: sum('undocumented'),
    socketRefusals: sum('socketRefusals'),
    botCheckRefusals: sum('botCheckRefusals'),
    acceptedAgainstPolicy: sum('acceptedAgainstPolicy'),
    submitStored201: sum('stored201'),
    requestRows: stored.requests,
    refusedButStored,
    storedTextsChecked: stored.checked,
    invalidStoredTexts: stored.found.length,
    invalidStoredExamples: stored.found.slice(0, 10),
    tokensSolved: tokens.solved,
    perCase,
    offenders,
  };
}

const results = [];
for (const kind of KINDS) results.push(await run(kind));

let clean = true;
for (const r of results) {
  const bad =
    r.serverErrors +
    r.transportErrors +
    r.undocumented +
    r.botCheckRefusals +
    r.acceptedAgainstPolicy +
    r.invalidStoredTexts +
    Math.abs(r.refusedButStored);
  clean &&= bad === 0;
  console.log(
    `\n${r.database}: ${r.bodies} generated bodies (+ ${r.callsWithoutBody} intake calls without a body) in ${r.seconds} s, seed ${r.seed}; ` +
      `${r.serverErrors} answers >= 500, ${r.transportErrors} transport errors, ${r.undocumented} undocumented error codes ` +
      `(${r.socketRefusals} answered on the socket: HEADERS_TOO_LARGE/URI_TOO_LONG), ` +
      `${r.botCheckRefusals} bot-check refusals, ${r.acceptedAgainstPolicy} intake bodies accepted against the text policy; ` +
      `submit 201: ${r.submitStored201}, request rows ${r.requestRows} (1 the base body's; refused but stored: ${r.refusedButStored}); ` +
      `stored texts checked ${r.storedTextsChecked}, against the policy ${r.invalidStoredTexts}; load ${r.load.before} -> ${r.load.after}`,
  );
  console.table(
    r.perCase.map((s) => ({
      case: s.case,
      generated: s.generated,
      calls: s.calls,
      '>=500': s.serverErrors,
      statuses: Object.entries(s.statuses)
        .map(([k, v]) => `${k}: ${v}`)
        .join(', '),
    })),
  );
  for (const o of r.offenders.slice(0, 5)) console.log(JSON.stringify(o).slice(0, 800));
}
const at = new Date().toISOString();
const dir = join(repo, 'bench/results');
mkdirSync(dir, { recursive: true });
const file = join(dir, `fuzz-${at.replace(/[:.]/g, '-')}.json`);
writeFileSync(
  file,
  `${JSON.stringify({ at, node: process.version, cpus: cpus().length, bodiesPerDatabase: BODIES, concurrency: CONCURRENCY, results }, null, 2)}\n`,
);
console.log(`\n${file}`);
process.exitCode = clean ? 0 : 1;

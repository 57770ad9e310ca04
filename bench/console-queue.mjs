#!/usr/bin/env node
/**
 * The console's queue at 100,000 requests (issue 38: "paging that holds on both databases at
 * 100,000 requests"): seeds a fresh SQLite file (in a temporary folder) and a fresh PostgreSQL
 * database (dropped afterwards) with requests as a register holds them after a while, then times
 * the console's own data functions (packages/server console/queue.ts, console/search.ts) in
 * process: the tab counts, the first and the 50th page of a tab, name searches (a surname, a
 * surname with a birth date, a one-letter prefix) and the birth-number search. Each figure is the
 * median of `--runs` runs after one warm-up run; the machine's load is printed with them. Also
 * prints each query's plan (the database's own EXPLAIN). No target is asserted: the tests check
 * that the pages are right (console/queue.test.ts, search.test.ts) and read their indexes
 * (console/plans.test.ts).
 *
 *   npm run build && node bench/console-queue.mjs [--database sqlite|postgres|both] [--requests 100000] [--runs 9]
 *   node --import tsx bench/console-queue.mjs --src …   (the TypeScript sources, no build)
 *
 * The mix (of every 100 requests): 3 new on paper, 1 new after NIA, 2 received, 4 in progress,
 * 1 documents needed, 49 decided and still held, 40 decided and erased (the retention purge);
 * a new request every 5 minutes, two at each instant (equal times page by reference). Names
 * from 40 surnames (male and female forms) and 30 given names, the bench applicant's other
 * values (about 1.3 kB of JSON each).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { applicant } from './applicant.mjs';
import { benchDatabase } from './lib.mjs';

const repo = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({
  options: {
    database: { type: 'string', default: 'both' },
    requests: { type: 'string', default: '100000' },
    runs: { type: 'string', default: '9' },
    src: { type: 'boolean', default: false },
  },
});
const COUNT = Number(values.requests);
const RUNS = Number(values.runs);
const KINDS = values.database === 'both' ? ['sqlite', 'postgres'] : [values.database];

const server = async (path) =>
  import(join(repo, 'packages/server', values.src ? `src/${path}.ts` : `dist/${path}.js`));
const { openDatabase } = await server('db/database');
const { migrateToLatest } = await server('db/migrations');
const { queueCounts, queueCountsQueries, queuePage, queuePageQuery } = await server('console/queue');
const { searchRequests, searchQuery } = await server('console/search');
const { searchKeysOf } = await server('requests/searchKeys');
const { sql, CompiledQuery } = await import('kysely');

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

const SURNAMES = [
  ['Novák', 'Nováková'],
  ['Svoboda', 'Svobodová'],
  ['Novotný', 'Novotná'],
  ['Dvořák', 'Dvořáková'],
  ['Černý', 'Černá'],
  ['Procházka', 'Procházková'],
  ['Kučera', 'Kučerová'],
  ['Veselý', 'Veselá'],
  ['Horák', 'Horáková'],
  ['Němec', 'Němcová'],
  ['Pokorný', 'Pokorná'],
  ['Marek', 'Marková'],
  ['Pospíšil', 'Pospíšilová'],
  ['Hájek', 'Hájková'],
  ['Jelínek', 'Jelínková'],
  ['Král', 'Králová'],
  ['Růžička', 'Růžičková'],
  ['Beneš', 'Benešová'],
  ['Fiala', 'Fialová'],
  ['Sedláček', 'Sedláčková'],
  ['Doležal', 'Doležalová'],
  ['Zeman', 'Zemanová'],
  ['Kolář', 'Kolářová'],
  ['Navrátil', 'Navrátilová'],
  ['Čermák', 'Čermáková'],
  ['Vaněk', 'Vaňková'],
  ['Urban', 'Urbanová'],
  ['Blažek', 'Blažková'],
  ['Kříž', 'Křížová'],
  ['Kovář', 'Kovářová'],
  ['Bartoš', 'Bartošová'],
  ['Vlček', 'Vlčková'],
  ['Polák', 'Poláková'],
  ['Musil', 'Musilová'],
  ['Kopecký', 'Kopecká'],
  ['Šimek', 'Šimková'],
  ['Konečný', 'Konečná'],
  ['Malý', 'Malá'],
  ['Holub', 'Holubová'],
  ['Štěpánek', 'Štěpánková'],
];
const MEN = [
  'Jan',
  'Petr',
  'Josef',
  'Pavel',
  'Martin',
  'Tomáš',
  'Jaroslav',
  'Miroslav',
  'Zdeněk',
  'Václav',
  'Michal',
  'František',
  'Jiří',
  'Karel',
  'Lukáš',
];
const WOMEN = [
  'Marie',
  'Jana',
  'Eva',
  'Hana',
  'Anna',
  'Lenka',
  'Kateřina',
  'Lucie',
  'Věra',
  'Alena',
  'Petra',
  'Veronika',
  'Martina',
  'Jitka',
  'Tereza',
];

/** The status of request i, and whether it is erased (the mix above). */
function statusOf(i) {
  const m = i % 100;
  if (m < 3) return ['new', 0, false];
  if (m < 4) return ['new', 1, false];
  if (m < 6) return ['received', 0, false];
  if (m < 10) return ['in_progress', i % 3 === 0 ? 1 : 0, false];
  if (m < 11) return ['documents_needed', 0, false];
  const decided = m % 7 === 0 ? 'refused' : m % 11 === 0 ? 'withdrawn' : 'issued';
  return [decided, i % 4 === 0 ? 1 : 0, m >= 60];
}

function rowOf(i) {
  const [status, viaNia, erased] = statusOf(i);
  const woman = i % 2 === 1;
  // A few surnames far more common than the rest, as in the country.
  const s = SURNAMES[(i * 7919) % 97 < 40 ? (i * 7919) % 97 : (i * 31) % 8] ?? SURNAMES[0];
  const given = (woman ? WOMEN : MEN)[(i * 13) % 15];
  const year = 1950 + (i % 55);
  const month = 1 + (i % 12);
  const day = 1 + (i % 28);
  const date = `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
  const rc = `${String(year % 100).padStart(2, '0')}${String(month + (woman ? 50 : 0)).padStart(2, '0')}${String(day).padStart(2, '0')}${String(i % 10000).padStart(4, '0')}`;
  const values = {
    ...applicant(i),
    first_name: given,
    last_name: woman ? s[1] : s[0],
    birth_date: date,
    birth_number: rc,
  };
  const created = new Date(Date.UTC(2025, 0, 1) + Math.floor(i / 2) * 300_000).toISOString();
  const keys = erased
    ? { search_name: null, birth_date: null, birth_number_key: null }
    : searchKeysOf(values);
  return {
    id: `bench-${String(i).padStart(7, '0')}`,
    reference: `ROS-2025-${String(i + 1).padStart(6, '0')}`,
    language: i % 10 === 0 ? 'en' : 'cs',
    duplicate: i % 9 === 0 ? 1 : 0,
    via_nia: viaNia,
    payload: erased ? '{}' : JSON.stringify(values),
    person_key: erased ? null : `bench:${i}`,
    idempotency_key: null,
    body_hash: erased ? '' : 'bench',
    created_at: created,
    status,
    received_at: status === 'new' ? null : created,
    erased_at: erased ? created : null,
    legal_version: '1',
    declarations: null,
    ...keys,
  };
}

async function seed(db) {
  const started = Date.now();
  for (let start = 0; start < COUNT; start += 500) {
    const rows = [];
    for (let i = start; i < Math.min(COUNT, start + 500); i++) rows.push(rowOf(i));
    await db.kysely.insertInto('requests').values(rows).execute();
  }
  // PostgreSQL's autovacuum analyses a table that grew; SQLite gets no statistics (the server
  // never runs ANALYZE): each as in production.
  if (db.dialect === 'postgres') await sql`analyze requests`.execute(db.kysely);
  return Date.now() - started;
}

/** Median, min and max of `RUNS` timed runs (ms) after one warm-up run. */
async function time(fn) {
  await fn();
  const ms = [];
  for (let r = 0; r < RUNS; r++) {
    const t0 = process.hrtime.bigint();
    await fn();
    ms.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  ms.sort((a, b) => a - b);
  return { median: ms[Math.floor(ms.length / 2)], min: ms[0], max: ms[ms.length - 1] };
}

async function plan(db, query) {
  const q = query.compile();
  const explain = db.dialect === 'sqlite' ? 'explain query plan ' : 'explain ';
  const r = await db.kysely.executeQuery(CompiledQuery.raw(`${explain}${q.sql}`, [...q.parameters]));
  return r.rows.map((row) => String(row.detail ?? row['QUERY PLAN']).trim());
}

async function run(kind) {
  const base = await benchDatabase(kind, 'console');
  const db = openDatabase({ databaseUrl: base.env.DATABASE_URL || undefined, dataDir: base.dataDir });
  try {
    await migrateToLatest(db.kysely, db.dialect);
    const loadBefore = load();
    const seedMs = await seed(db);
    // The cursor of the 50th page of "in progress" (4,000 requests of 100,000: 80 pages of 50;
    // with fewer requests, of its last page).
    const TAB = 'in_progress';
    let cursor;
    let pageNo = 1;
    const seen = [];
    while (pageNo < 50) {
      const page = await queuePage(db, { tab: TAB, cursor, limit: 50 });
      seen.push(...page.rows.map((r) => r.reference));
      if (page.next === null) break;
      cursor = page.next;
      pageNo++;
    }
    if (new Set(seen).size !== seen.length) throw new Error('paging: a row twice');
    const counts = await queueCounts(db);
    const searches = {
      surname: { name: 'novák', limit: 50 },
      surnameGivenDate: { name: 'novák jan', birthDate: rowOf(0).birth_date ?? '1950-01-01', limit: 50 },
      oneLetter: { name: 'n', limit: 50 },
      birthNumber: { birthNumber: JSON.parse(rowOf(6).payload).birth_number, limit: 50 },
    };
    const hits = {};
    for (const [k, q] of Object.entries(searches)) hits[k] = (await searchRequests(db, q)).rows.length;
    const figures = {
      counts: await time(() => queueCounts(db)),
      firstPage: await time(() => queuePage(db, { tab: TAB, limit: 50 })),
      [`page${pageNo}`]: await time(() => queuePage(db, { tab: TAB, cursor, limit: 50 })),
      firstPagePaperNew: await time(() => queuePage(db, { tab: 'paper_new', limit: 50 })),
    };
    for (const [k, q] of Object.entries(searches))
      figures[`search.${k}`] = await time(() => searchRequests(db, q));
    const plans = {
      countsWorked: await plan(db, queueCountsQueries(db).worked),
      countsNew: await plan(db, queueCountsQueries(db).fresh),
      [`page${pageNo}`]: await plan(db, queuePageQuery(db, { tab: TAB, cursor, limit: 50 })),
      surname: await plan(db, searchQuery(db, searches.surname).query),
      oneLetter: await plan(db, searchQuery(db, searches.oneLetter).query),
    };
    return {
      kind,
      requests: COUNT,
      seedMs,
      counts,
      hits,
      figures,
      plans,
      load: { before: loadBefore, after: load() },
    };
  } finally {
    await db.close();
    await base.drop();
  }
}

console.log(
  `console queue bench: ${COUNT} requests, median of ${RUNS} runs, ${cpus().length} CPUs, Node ${process.version}`,
);
const results = [];
for (const kind of KINDS) {
  const r = await run(kind);
  results.push(r);
  console.log(
    `\n${kind}: seeded in ${(r.seedMs / 1000).toFixed(1)} s; load (1/5/15 min) ${r.load.before} → ${r.load.after}`,
  );
  console.log(`  tabs: ${JSON.stringify(r.counts)}; hits (first page): ${JSON.stringify(r.hits)}`);
  for (const [k, f] of Object.entries(r.figures))
    console.log(
      `  ${k.padEnd(26)} ${f.median.toFixed(2).padStart(8)} ms  (min ${f.min.toFixed(2)}, max ${f.max.toFixed(2)})`,
    );
  for (const [k, p] of Object.entries(r.plans)) console.log(`  plan ${k}: ${p.join(' | ')}`);
}
const dir = join(repo, 'bench/results');
mkdirSync(dir, { recursive: true });
const file = join(dir, `console-queue-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
console.log(`\n${file}`);

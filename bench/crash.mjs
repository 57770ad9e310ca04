#!/usr/bin/env node
/**
 * Acknowledged means stored (issue 33's "done when"): requests are sent without pause while the
 * server is killed with SIGKILL (`kill -9`: no shutdown work, no flush) at a random moment, again
 * and again, on SQLite and on PostgreSQL. Every request the server answered 201 must be in the
 * database after the restart, with the reference it was given; a request that got no answer may
 * or may not be there (the applicant sends it again with the same Idempotency-Key).
 *
 *   npm run build && node bench/crash.mjs [--db sqlite|postgres|both] [--cycles 40] [--senders 6]
 *
 * Each cycle: start the built server on the same data (development mode, the bench's settings:
 * bench/lib.mjs BENCH_SERVER_ENV), check that every request acknowledged so far is stored, start
 * `--senders` loops that each solve a bot-check challenge and submit a new applicant's request
 * with an Idempotency-Key, kill the server 0.3-2.5 s later. After the last cycle one more start
 * checks everything. Prints per database the cycles, requests acknowledged, requests lost
 * (acknowledged but not stored, or stored under another reference) and the machine's load; exit
 * code 0 only when none was lost.
 */
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import pg from 'pg';
import { AGREED, applicant, botToken, json } from './applicant.mjs';
import { BENCH_SERVER_ENV, benchDatabase, spawnServer } from './lib.mjs';

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'both' },
    cycles: { type: 'string', default: '40' },
    senders: { type: 'string', default: '6' },
  },
});
const CYCLES = Number(values.cycles);
const SENDERS = Number(values.senders);

/** The stored references of `ids`, read from the database itself (not through the server). */
async function storedReferences(db, ids) {
  if (ids.length === 0) return new Map();
  if (db.kind === 'postgres') {
    const c = new pg.Client({ connectionString: db.env.DATABASE_URL });
    await c.connect();
    try {
      const r = await c.query('select id, reference from requests where id = any($1)', [ids]);
      return new Map(r.rows.map((row) => [row.id, row.reference]));
    } finally {
      await c.end();
    }
  }
  const sqlite = new Database(join(db.dataDir, 'ros.sqlite'), { readonly: true, fileMustExist: true });
  try {
    const stmt = sqlite.prepare('select id, reference from requests where id = ?');
    return new Map(ids.map((id) => [id, stmt.get(id)?.reference]).filter(([, ref]) => ref));
  } finally {
    sqlite.close();
  }
}

/** Sends requests one after another until `stopped()`; records each 201 in `acked` (id -> reference). */
async function sender(base, acked, stopped, counter) {
  while (!stopped()) {
    try {
      const token = await botToken(base);
      const body = { ...applicant(counter.n++), language: 'cs', duplicate: false, ...AGREED };
      const r = await fetch(
        `${base}/api/ros`,
        json(body, { recaptcha: token, 'idempotency-key': randomUUID() }),
      );
      const answer = await r.json();
      if (r.status === 201) acked.set(answer.id, answer.reference);
      else if (!stopped()) counter.refused[r.status] = (counter.refused[r.status] ?? 0) + 1;
    } catch {
      // The server went away mid-call: not acknowledged.
    }
  }
}

/** Fails with the lost ids when an acknowledged request is not stored under its reference. */
async function lostOf(db, acked) {
  const stored = await storedReferences(db, [...acked.keys()]);
  return [...acked].filter(([id, reference]) => stored.get(id) !== reference).map(([id]) => id);
}

async function run(kind) {
  const db = await benchDatabase(kind, 'crash');
  const acked = new Map();
  const counter = { n: Math.floor(Math.random() * 1e9), refused: {} };
  let lost = [];
  try {
    for (let cycle = 0; cycle < CYCLES; cycle++) {
      const server = await spawnServer({ ...db.env, ...BENCH_SERVER_ENV });
      lost = await lostOf(db, acked);
      if (lost.length > 0) {
        await server.kill();
        break;
      }
      let stop = false;
      const loops = Array.from({ length: SENDERS }, () => sender(server.base, acked, () => stop, counter));
      await new Promise((r) => setTimeout(r, 300 + Math.random() * 2200));
      await server.kill();
      stop = true;
      await Promise.all(loops);
      process.stderr.write(`  ${kind}: cycle ${cycle + 1}/${CYCLES}, ${acked.size} acknowledged\n`);
    }
    if (lost.length === 0) {
      // The last cycle's acknowledgements, checked after one more start (recovery included).
      const server = await spawnServer({ ...db.env, ...BENCH_SERVER_ENV });
      lost = await lostOf(db, acked);
      await server.stop();
    }
  } finally {
    await db.drop();
  }
  return { kind, acked: acked.size, lost: lost.length, refused: counter.refused };
}

const kinds = values.db === 'both' ? ['sqlite', 'postgres'] : [values.db];
let allKept = true;
for (const kind of kinds) {
  const load = loadavg()[0];
  const r = await run(kind);
  allKept &&= r.lost === 0;
  console.log(
    `${kind}: ${CYCLES} kill -9 cycles, ${SENDERS} senders: ${r.acked} requests acknowledged, ${r.lost} lost` +
      `${Object.keys(r.refused).length ? `; other answers ${JSON.stringify(r.refused)}` : ''}; 1-minute load ${load.toFixed(1)} at start, ${loadavg()[0].toFixed(1)} at end`,
  );
}
process.exitCode = allKept ? 0 : 1;

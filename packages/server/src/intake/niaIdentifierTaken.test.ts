import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../app.js';
import { savePersons } from '../register/import.js';
import { NiaIdentifierTakenError } from '../register/persons.js';
import { createTestDb, type TestDb, testDbKinds } from '../test/databases.js';
import { createToken } from './tokens.js';

/**
 * Issue 21: a 409 on PUT persons (NIA identifier taken) wrote the identifier into PostgreSQL's
 * server log, as the DETAIL of the unique violation. The identifier is now checked before the
 * write, so the database never raises one: the test watches every query's error (any database
 * user can run it), and where this machine's PostgreSQL log is readable
 * (/var/log/postgresql, as Debian keeps it) it reads what the server logged meanwhile.
 */

const LOG_DIR = '/var/log/postgresql';

/** The readable PostgreSQL log files and their sizes now (none where the folder is not ours to read). */
function logSizes(): Map<string, number> {
  const sizes = new Map<string, number>();
  try {
    for (const f of readdirSync(LOG_DIR)) {
      const path = join(LOG_DIR, f);
      try {
        closeSync(openSync(path, 'r'));
        sizes.set(path, statSync(path).size);
      } catch {
        // not readable
      }
    }
  } catch {
    // no such folder
  }
  return sizes;
}

/** What the logs gained since `before`. */
function logGrowth(before: Map<string, number>): string {
  let out = '';
  for (const [path, from] of before) {
    const size = statSync(path).size;
    if (size <= from) continue;
    const buf = Buffer.alloc(size - from);
    const fd = openSync(path, 'r');
    try {
      readSync(fd, buf, 0, buf.length, from);
    } finally {
      closeSync(fd);
    }
    out += buf.toString('utf8');
  }
  return out;
}

for (const kind of await testDbKinds()) {
  describe(`a NIA identifier that another person holds (${kind})`, () => {
    let t: TestDb;
    let app: FastifyInstance;
    let token: string;
    /** Errors PostgreSQL raised to any query meanwhile (their SQLSTATE codes). */
    const raised: string[] = [];

    beforeAll(async () => {
      t = await createTestDb(kind);
      app = await buildApp({ config: t.config, db: t.db, version: 'test' });
      await app.ready();
      token = (await createToken(t.db, 'persons', ['persons:write'], 'test')) as string;
      const query = pg.Client.prototype.query;
      vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (
        this: pg.Client,
        ...args: unknown[]
      ) {
        const r = (query as (...a: unknown[]) => unknown).apply(this, args);
        if (r instanceof Promise)
          r.catch((err: { code?: string }) => {
            raised.push(err.code ?? 'unknown');
          });
        return r as never;
      });
    });
    afterAll(async () => {
      vi.restoreAllMocks();
      await app?.close();
      await t?.cleanup();
    });

    const put = (id: number, nia: string) =>
      app.inject({
        method: 'PUT',
        url: `/api/intake/v1/persons/${id}`,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        payload: { jmeno: 'Zofie', prijmeni: 'Řeháková', nia_identifier: nia },
      });

    it('PUT persons answers 409 without the database raising a unique violation or logging the value', async () => {
      const nia = `nia-${randomBytes(12).toString('hex')}`;
      expect((await put(71, nia)).statusCode).toBe(201);
      const logs = logSizes();
      raised.length = 0;
      for (const id of [72, 73]) {
        const r = await put(id, nia);
        expect(r.statusCode, r.body).toBe(409);
        expect(r.json().error.code).toBe('NIA_IDENTIFIER_TAKEN');
        expect(r.body).not.toContain(nia);
      }
      // The holder itself keeps it.
      expect((await put(71, nia)).statusCode).toBe(200);
      // Let the query promises' handlers run.
      await new Promise((r) => setImmediate(r));
      expect(raised).toEqual([]);
      if (kind === 'postgres' && logs.size > 0) {
        // The server writes its log on its own: a failing query with a marker of ours, logged
        // after everything the calls above caused, says when the log has caught up.
        const marker = `ros-log-marker-${randomBytes(6).toString('hex')}`;
        const client = new pg.Client({ connectionString: t.config.databaseUrl });
        await client.connect();
        await client.query(`select '${marker}'::int`).catch(() => {});
        await client.end();
        await expect.poll(() => logGrowth(logs), { timeout: 60_000 }).toContain(marker);
        const grown = logGrowth(logs);
        expect(grown).not.toContain(nia);
        expect(grown).not.toMatch(/duplicate key value violates unique constraint "persons_nia/);
      }
    });

    it('a file of persons that gives one identifier twice is refused the same way', async () => {
      const nia = `nia-${randomBytes(12).toString('hex')}`;
      raised.length = 0;
      const person = { jmeno: 'Eva', prijmeni: 'Malá' };
      await expect(
        savePersons(t.db, [
          { id: 81, person, nia_identifier: nia },
          { id: 82, person, nia_identifier: nia },
        ]),
      ).rejects.toBeInstanceOf(NiaIdentifierTakenError);
      await new Promise((r) => setImmediate(r));
      expect(raised).toEqual([]);
    });
  });
}

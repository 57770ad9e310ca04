import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultFormValues } from '@ros/domain';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AppContext } from '../context.js';
import { authenticate } from '../intake/tokens.js';
import { bodyHash, type StoredRequest, storeRequest } from '../requests/repository.js';
import { AGREED } from '../test/applicant.js';
import { createTestDb, type TestDb, testDbKinds } from '../test/databases.js';
import { seedFormData } from '../test/seed.js';
import { run as audit } from './audit.js';
import { run as purge } from './purge.js';
import { csvCell, run as requests } from './requests.js';
import { run as tokens } from './tokens.js';

const DAY = 86_400_000;

for (const kind of await testDbKinds()) {
  describe(`ros-admin requests, tokens, audit, purge (${kind})`, { timeout: 60_000 }, () => {
    let t: TestDb;
    let ctx: AppContext;
    let lines: string[];
    const cli =
      (run: typeof requests) =>
      async (...args: string[]) => {
        lines = [];
        return run(args, ctx, (l) => lines.push(l));
      };
    let n = 0;
    const stored = async (first: string, now: Date, nia?: string): Promise<StoredRequest> => {
      const values = {
        ...defaultFormValues(),
        first_name: first,
        last_name: 'Svobodová',
        home_state: 'CZ',
        telephone: '+420 777',
      };
      const r = await storeRequest(
        t.db,
        {
          language: 'en',
          duplicate: false,
          viaNia: nia !== undefined,
          niaIdentifier: nia ?? null,
          values,
          personKey: `k${n}`,
          idempotencyKey: `i${n}`,
          bodyHash: bodyHash({ values, n: n++ }),
          legal: AGREED,
        },
        now,
      );
      if (!('request' in r)) throw new Error('not stored');
      return r.request;
    };
    const auditRows = () =>
      t.db.kysely
        .selectFrom('audit_log')
        .select(['actor', 'action', 'target', 'outcome'])
        .orderBy('id')
        .execute();

    beforeEach(async () => {
      t = await createTestDb(kind);
      ctx = { config: t.config, db: t.db, version: 'test' };
      await seedFormData(ctx);
    });
    afterEach(async () => {
      vi.restoreAllMocks();
      await t?.cleanup();
    });

    it('tokens: create prints a working token once, list shows last use, revoke stops it', async () => {
      expect(
        await cli(tokens)('create', '--name', 'backoffice', '--scopes', 'requests:read,requests:receive'),
      ).toBe(0);
      const token = lines[1] as string;
      expect(token).toMatch(/^ros_[A-Za-z0-9_-]{43}$/);
      // Stored hashed: the token itself is nowhere in the table.
      expect(
        JSON.stringify(await t.db.kysely.selectFrom('intake_tokens').selectAll().execute()),
      ).not.toContain(token.slice(4));
      expect(await authenticate(t.db, token)).toEqual({
        name: 'backoffice',
        scopes: ['requests:read', 'requests:receive'],
      });
      expect(await cli(tokens)('list')).toBe(0);
      expect(lines[0]).toMatch(/^NAME\s+SCOPES\s+CREATED\s+BY\s+LAST USE\s+REVOKED$/);
      expect(lines[1]).toMatch(
        /^backoffice\s+requests:read,requests:receive\s+\S+Z\s+operator:\S+\s+\d{4}-\S+Z\s+-$/,
      );
      expect(await cli(tokens)('create', '--name', 'backoffice', '--scopes', 'requests:read')).toBe(1);
      expect(await cli(tokens)('create', '--name', 'x', '--scopes', 'requests:write')).toBe(2);
      expect(lines[0]).toContain('unknown scope "requests:write"');
      expect(await cli(tokens)('create', '--name', 'bad name', '--scopes', 'requests:read')).toBe(2);
      expect(await cli(tokens)('revoke', 'backoffice')).toBe(0);
      expect(await authenticate(t.db, token)).toBeNull();
      expect(await cli(tokens)('revoke', 'backoffice')).toBe(0);
      expect(lines).toEqual(['Token "backoffice" was revoked already.']);
      expect(await cli(tokens)('revoke', 'nobody')).toBe(1);
      expect(await auditRows()).toEqual([
        expect.objectContaining({
          action: 'tokens.create',
          target: 'token:backoffice',
          actor: expect.stringMatching(/^operator:/),
        }),
        expect.objectContaining({ action: 'tokens.revoke', target: 'token:backoffice' }),
      ]);
    });

    it('requests list, show, received: by status and date, found by reference', async () => {
      const a = await stored('Anna', new Date('2026-02-01T08:00:00Z'));
      const b = await stored('Berta', new Date('2026-02-03T08:00:00Z'), 'nia-id-7');
      expect(await cli(requests)('list', '--since', '2026-02-01')).toBe(0);
      expect(lines[0]).toMatch(/^REFERENCE\s+STATUS\s+CHANNEL\s+LANG\s+KIND\s+SUBMITTED\s+RECEIVED$/);
      expect(lines.slice(1).map((l) => l.split(/\s+/).slice(0, 3))).toEqual([
        [a.reference, 'new', 'pdf'],
        [b.reference, 'new', 'nia'],
      ]);
      expect(lines.join('\n')).not.toContain('Anna');
      expect(await cli(requests)('list', '--since', '2026-02-02')).toBe(0);
      expect(lines.slice(1).map((l) => l.split(/\s+/)[0])).toEqual([b.reference]);
      expect(await cli(requests)('list', '--until', '2026-02-02')).toBe(0);
      expect(lines.slice(1).map((l) => l.split(/\s+/)[0])).toEqual([a.reference]);
      // A day that does not exist is refused, not rolled over to 2 March (issue 21).
      for (const day of ['2026-02-30', '2026-02-29', '2026-02-01T24:00Z']) {
        expect(await cli(requests)('list', '--since', day)).toBe(2);
        expect(lines.join('\n')).toMatch(/--since must be a date/);
        expect(await cli(requests)('list', '--until', day)).toBe(2);
      }

      expect(await cli(requests)('received', a.reference.toLowerCase())).toBe(0);
      expect(lines[0]).toMatch(new RegExp(`^${a.reference} is marked received`));
      expect(await cli(requests)('received', a.reference)).toBe(0);
      expect(lines[0]).toContain('nothing changed');
      expect(await cli(requests)('list', '--status', 'received')).toBe(0);
      expect(lines.slice(1).map((l) => l.split(/\s+/)[0])).toEqual([a.reference]);
      expect(await cli(requests)('list', '--status', 'old')).toBe(2);

      expect(await cli(requests)('show', b.reference)).toBe(0);
      expect(lines[0]).toBe(`${b.reference}  new  nia  en  new certificate`);
      expect(lines).toContainEqual(expect.stringMatching(/^ {2}first_name\s+Berta$/));
      expect(lines).toContainEqual(expect.stringMatching(/^ {2}nia_person_identifier\s+nia-id-7$/));
      // The legal texts' version and the boxes as ticked (issue 22).
      expect(lines).toContain(`declarations (legal texts version ${AGREED.version}):`);
      expect(lines).toContainEqual(
        expect.stringMatching(/^ {2}\[x\] signature: I confirm that I am the applicant\. I signed in/),
      );
      expect(lines).toContainEqual(expect.stringMatching(/^ {2}\[ \] notify_email: /));
      expect(await cli(requests)('show', 'ROS-2026-999999')).toBe(1);
      expect(await cli(requests)('show', 'nonsense')).toBe(2);
      expect(await auditRows()).toEqual([
        expect.objectContaining({ action: 'requests.received', target: a.reference }),
        expect.objectContaining({ action: 'requests.received', target: a.reference }),
        expect.objectContaining({ action: 'requests.read', target: b.reference }),
      ]);
    });

    it('requests export: JSON and CSV with every value, a PDF each, progress on stderr, an audit row each', async () => {
      const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
      const refs: string[] = [];
      for (let i = 0; i < 30; i++)
        refs.push((await stored(`P${i}`, new Date(Date.UTC(2026, 2, 1, 8, i)))).reference);
      const old = await stored('Old', new Date('2026-01-01T00:00:00Z'));
      const json = join(t.dataDir, 'out.json');
      const pdfDir = join(t.dataDir, 'pdfs');
      expect(
        await cli(requests)(
          'export',
          '--since',
          '2026-03-01',
          '--format',
          'json',
          '--out',
          json,
          '--pdf-dir',
          pdfDir,
        ),
      ).toBe(0);
      const data = JSON.parse(readFileSync(json, 'utf8'));
      expect(data.map((d: { reference: string }) => d.reference)).toEqual(refs);
      expect(data[0].values).toMatchObject({ first_name: 'P0', last_name: 'Svobodová' });
      expect(readdirSync(pdfDir).sort()).toEqual(refs.map((r) => `${r}.pdf`).sort());
      expect(
        readFileSync(join(pdfDir, `${refs[0]}.pdf`))
          .subarray(0, 5)
          .toString(),
      ).toBe('%PDF-');
      expect(existsSync(join(pdfDir, `${old.reference}.pdf`))).toBe(false);
      const progress = stderr.mock.calls.map((c) => String(c[0])).join('');
      expect(progress).toContain('exported 25 request(s)');
      expect(progress).toContain('exported 30 request(s)\n');
      expect((await auditRows()).filter((r) => r.action === 'requests.export')).toHaveLength(30);

      expect(await cli(requests)('export', '--since', '2026-03-01T08:28:00Z', '--format', 'csv')).toBe(0);
      const header = (lines[0] as string).split(',');
      expect(header.slice(0, 7)).toEqual([
        'reference',
        'status',
        'channel',
        'language',
        'duplicate',
        'created_at',
        'received_at',
      ]);
      expect(header).toContain('first_name');
      expect(header).toContain('past_activities');
      expect(lines).toHaveLength(3);
      expect(lines[1]).toContain(refs[28]);
      expect(lines[1]).toContain('+420 777');
      expect(await cli(requests)('export', '--format', 'csv')).toBe(2);
      expect(await cli(requests)('export', '--since', '2026-03-01', '--format', 'xml')).toBe(2);
    });

    it('a CSV cell is quoted when needed and cannot start a spreadsheet formula', () => {
      expect(csvCell('a,b')).toBe('"a,b"');
      expect(csvCell('say "hi"')).toBe('"say ""hi"""');
      expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
      expect(csvCell('+420 777')).toBe('+420 777');
      expect(csvCell('-cmd')).toBe("'-cmd");
      expect(csvCell(['CZ', 'SK'])).toBe('"[""CZ"",""SK""]"');
      expect(csvCell(null)).toBe('');
    });

    it('requests overdue and purge [--dry-run]: what retention erases, and only then', async () => {
      const now = Date.now();
      const old = await stored('Olga', new Date(now - 175 * DAY));
      const fresh = await stored('Frida', new Date(now - 10 * DAY));
      const gone = await stored('Greta', new Date(now - 181 * DAY));
      expect(await cli(requests)('overdue')).toBe(0);
      expect(lines.slice(1, 3).map((l) => l.split(/\s+/)[0])).toEqual([gone.reference, old.reference]);
      expect(lines[1]).toContain('past due');
      expect(lines.join('\n')).not.toContain(fresh.reference);
      expect(await cli(requests)('overdue', '--within', '1')).toBe(0);
      expect(lines.slice(1, -1).map((l) => l.split(/\s+/)[0])).toEqual([gone.reference]);

      expect(await cli(purge)('--dry-run')).toBe(0);
      expect(lines[0]).toMatch(/^Would erase the personal data of 1 request\(s\)/);
      expect(lines[1]).toContain(gone.reference);
      expect(await cli(requests)('show', gone.reference)).toBe(0);
      expect(lines).toContainEqual(expect.stringMatching(/first_name\s+Greta/));

      expect(await cli(purge)()).toBe(0);
      expect(lines[0]).toMatch(/^Erased the personal data of 1 request\(s\)/);
      expect(await cli(requests)('show', gone.reference)).toBe(0);
      expect(lines.join('\n')).toContain('erased');
      expect(lines.join('\n')).not.toContain('Greta');
      expect(await cli(purge)()).toBe(0);
      expect(lines[0]).toMatch(/^Erased the personal data of 0 request/);
      expect(lines.join('\n')).not.toContain('erased earlier');
      // A note the code before the 410 stored on the erased request: the next purge says it cleared it.
      await t.db.kysely
        .insertInto('request_status_history')
        .values({
          request_id: gone.id,
          status: 'in_progress',
          at: new Date().toISOString(),
          note: 'late note',
        })
        .execute();
      expect(await cli(purge)('--dry-run')).toBe(0);
      expect(lines[1]).toMatch(/^Would clear what 1 request\(s\) erased earlier still held/);
      expect(lines[2]).toBe(`  ${gone.reference}`);
      expect(await cli(purge)()).toBe(0);
      expect(lines[1]).toMatch(/^Cleared what 1 request\(s\) erased earlier still held/);
      expect(await cli(purge)()).toBe(0);
      expect(lines.join('\n')).not.toContain('erased earlier');
      expect(await cli(purge)('--now')).toBe(2);

      expect(await cli(audit)('list', '--target', gone.reference.toLowerCase())).toBe(0);
      expect(lines[0]).toMatch(/^AT\s+ACTOR\s+ACTION\s+TARGET\s+OUTCOME\s+DETAIL$/);
      // Newest first: the second erasure (of the late note), the erasure, then the show before it
      // (showing an erased request reads nothing).
      expect(lines.slice(1).map((l) => l.split(/\s+/).slice(2, 6))).toEqual([
        ['requests.erase', gone.reference, 'ok', 'again'],
        ['requests.erase', gone.reference, 'ok', expect.not.stringMatching(/again/)],
        ['requests.read', gone.reference, 'ok'],
      ]);
      expect(await cli(audit)('list', '--actor', 'system')).toBe(0);
      expect(lines).toEqual(['No audit rows.']);
      expect(await cli(audit)('list', '--since', 'soon')).toBe(2);
    });
  });
}

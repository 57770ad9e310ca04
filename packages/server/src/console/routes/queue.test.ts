import type { FormValues } from '@ros/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeStatus } from '../../intake/status.js';
import { eraseRequests } from '../../retention/erase.js';
import { newApplicant } from '../../test/applicant.js';
import { testDbKinds } from '../../test/databases.js';
import { storedRequest } from '../../test/requests.js';
import {
  auditSince,
  type ConsoleTestApp,
  consoleTestApp,
  expectConsolePage,
  get,
  lastAuditId,
  markupProblems,
  post,
  type Session,
  session,
  textOf,
} from './testing.js';

/**
 * The queue and the search through the console's pages (app.inject, SQLite and PostgreSQL): by
 * name prefix (case and diacritics ignored), name and birth date, birth number (exactly), and
 * reference; paging by the next link; and an erased request: nothing personal anywhere in its
 * HTML, no action offered, and every form sent to it refused with nothing stored.
 */

/** The links to requests on a queue or results page, in order. */
const listed = (html: string) =>
  [...html.matchAll(/<th scope="row"><a href="\/urad\/zadost\/([^"]+)">/g)].map((m) => m[1] as string);
/** The next page's address on a queue or results page. */
const nextLink = (html: string) =>
  /<a href="([^"]+)">Další strana<\/a>/.exec(html)?.[1]?.replaceAll('&amp;', '&') ?? null;
/** The addresses of the page's POST forms. */
const postForms = (html: string) =>
  [...html.matchAll(/<form\b[^>]*>/g)]
    .map((m) => m[0])
    .filter((f) => /method="post"/.test(f))
    .map((f) => /action="([^"]+)"/.exec(f)?.[1]);

/** The values of a request a person could be found by (every text of at least 4 characters). */
function personalStrings(values: FormValues): string[] {
  const out = new Set<string>();
  const walk = (v: unknown) => {
    if (typeof v === 'string') {
      if (v.trim().length >= 4) out.add(v.trim());
    } else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(values);
  return [...out];
}

for (const kind of await testDbKinds()) {
  describe(`the console's queue and search (${kind})`, { timeout: 120_000 }, () => {
    let c: ConsoleTestApp;
    let clerk: Session;
    const refs: Record<string, string> = {};

    beforeAll(async () => {
      c = await consoleTestApp(kind);
      const people: Record<string, Partial<FormValues>> = {
        jan: { first_name: 'Jan', last_name: 'Novák', birth_date: '1990-07-05', birth_number: '900705/1236' },
        jan2: {
          first_name: 'Jan',
          last_name: 'Novák',
          birth_date: '1971-01-02',
          birth_number: '710102/0007',
        },
        eva: {
          first_name: 'Eva',
          last_name: 'Nováková',
          birth_date: '1985-03-04',
          birth_number: '855304/1230',
        },
        other: { first_name: 'Ondřej', last_name: 'Šťastný', birth_date: '1990-07-05', birth_number: '' },
      };
      for (const [key, over] of Object.entries(people))
        refs[key] = (await storedRequest(c.t.db, newApplicant(over))).reference;
      clerk = await session(c, 'test-clerk');
    });
    afterAll(async () => {
      await c?.close();
    });

    it('finds by a name prefix, in any case and without diacritics; narrows by birth date', async () => {
      const before = await lastAuditId(c);
      const novak = [refs.jan, refs.jan2, refs.eva].sort();
      for (const name of ['novák', 'NOVAK', 'Novak', '  nov ']) {
        const res = await get(c, clerk, `/urad?name=${encodeURIComponent(name)}`);
        expectConsolePage(res, 200);
        expect(listed(res.body).sort(), name).toEqual(novak);
        expect(res.body).toContain('Výsledky hledání');
      }
      const jans = await get(c, clerk, `/urad?name=${encodeURIComponent('novak j')}`);
      expect(listed(jans.body).sort()).toEqual([refs.jan, refs.jan2].sort());
      expect(textOf(jans.body)).toContain('Jan Novák');
      expect(listed((await get(c, clerk, '/urad?name=stastny')).body)).toEqual([refs.other]);
      // With the birth date as a clerk types it.
      for (const date of ['5.7.1990', '05.07.1990', '5. 7. 1990']) {
        const res = await get(c, clerk, `/urad?name=novak&birthDate=${encodeURIComponent(date)}`);
        expectConsolePage(res, 200);
        expect(listed(res.body), date).toEqual([refs.jan]);
        // The form keeps what was typed.
        expect(res.body).toContain(`value="${date}"`);
      }
      const none = await get(c, clerk, '/urad?name=novotny');
      expectConsolePage(none, 200);
      expect(listed(none.body)).toEqual([]);
      expect(none.body).toContain('Žádné žádosti neodpovídají hledání.');
      // Audited by what was searched and how many rows: never the terms.
      const rows = (await auditSince(c, before)).filter((r) => r.action === 'console.search');
      expect(rows[0]).toMatchObject({
        actor: 'staff:test-clerk',
        outcome: 'ok',
        target: null,
        detail: 'by=name rows=3',
      });
      expect(rows.find((r) => r.detail === 'by=name+birthDate rows=1')).toMatchObject({ target: refs.jan });
      expect(JSON.stringify(rows)).not.toMatch(/nov|stastn|1990/i);
    });

    it('finds by birth number exactly (with or without the slash) and by reference', async () => {
      for (const bn of ['900705/1236', '9007051236', ' 900705 / 1236 ']) {
        const res = await get(c, clerk, `/urad?birthNumber=${encodeURIComponent(bn)}`);
        expectConsolePage(res, 200);
        expect(listed(res.body), bn).toEqual([refs.jan]);
      }
      expect(listed((await get(c, clerk, '/urad?birthNumber=900705%2F123')).body)).toEqual([]);
      expect(listed((await get(c, clerk, '/urad?birthNumber=7101020007')).body)).toEqual([refs.jan2]);
      for (const r of [refs.eva as string, (refs.eva as string).toLowerCase(), ` ${refs.eva} `]) {
        const res = await get(c, clerk, `/urad?reference=${encodeURIComponent(r)}`);
        expectConsolePage(res, 200);
        expect(listed(res.body), r).toEqual([refs.eva]);
      }
      expect(listed((await get(c, clerk, '/urad?reference=ROS-2099-999999')).body)).toEqual([]);
    });

    it('a search it cannot answer: the queue page again with the field errors (400), never a 500', async () => {
      const cases: Array<[string, string]> = [
        ['/urad?reference=ROS-1', 'Číslo žádosti má tvar ROS-2026-000001'],
        ['/urad?name=novak&birthDate=31.2.1990', 'Datum narození zadejte jako den.měsíc.rok'],
        ['/urad?birthDate=5.7.1990', 'Vyplňte alespoň jedno pole hledání.'],
      ];
      for (const [url, message] of cases) {
        const res = await get(c, clerk, url);
        expectConsolePage(res, 400);
        expect(textOf(res.body), url).toContain(message);
        expect(await markupProblems(res.body), url).toEqual([]);
      }
      // Fields that do not go together, or a value the search does not take: at the field, as typed.
      const refused: Array<[string, string, string]> = [
        ['/urad?name=novak&birthNumber=9007051236', 'hledat-rc', 'Hledejte jen jedním způsobem'],
        [`/urad?reference=${refs.jan}&name=novak`, 'hledat-jmeno', 'Hledejte jen jedním způsobem'],
        [
          '/urad?birthNumber=9007051236&birthDate=5.7.1990',
          'hledat-narozeni',
          'Datum narození upřesňuje jen hledání podle jména',
        ],
        ['/urad?name=nov%25', 'hledat-jmeno', 'Jméno může obsahovat jen písmena'],
        ['/urad?name=nov_k', 'hledat-jmeno', 'Jméno může obsahovat jen písmena'],
        ['/urad?birthNumber=abc', 'hledat-rc', 'Rodné číslo má 9 nebo 10 číslic'],
      ];
      for (const [url, field, message] of refused) {
        const res = await get(c, clerk, url);
        expectConsolePage(res, 400);
        expect(res.body, url).toContain(`<a href="#${field}">${message}`);
        expect(res.body, url).toContain(`<p class="console-error" id="${field}-chyba">${message}`);
        expect(res.body, url).toContain(
          `aria-describedby="${field}-napoveda ${field}-chyba" aria-invalid="true"`,
        );
        expect(listed(res.body), url).toEqual([]);
        expect(await markupProblems(res.body), url).toEqual([]);
      }
      expect((await get(c, clerk, '/urad?name=nov%25')).body).toContain('value="nov%"');
    });

    it('pages the queue and a search by the next link: none twice, none left out', async () => {
      const many: string[] = [];
      for (let i = 0; i < 53; i++)
        many.push(
          (await storedRequest(c.t.db, newApplicant({ first_name: `Petr${i}`, last_name: 'Dlouhý' })))
            .reference,
        );
      for (const start of ['/urad?stav=paper_new', '/urad?name=dlouhy']) {
        const seen: string[] = [];
        let url: string | null = start;
        for (let n = 0; url && n < 5; n++) {
          const res = await get(c, clerk, url);
          expectConsolePage(res, 200);
          const page = listed(res.body);
          expect(page.length).toBeLessThanOrEqual(50);
          seen.push(...page);
          url = nextLink(res.body);
          if (n > 0) expect(res.body).toContain('Na začátek');
        }
        expect(new Set(seen).size, start).toBe(seen.length);
        expect(seen.filter((r) => many.includes(r)).sort(), start).toEqual([...many].sort());
      }
      // The tab's count says the same.
      const queue = await get(c, clerk, '/urad');
      expect(textOf(queue.body)).toContain(`Čeká na podepsanou žádost (${53 + 4})`);
    });

    describe('an erased request', () => {
      let reference: string;
      let requestId: string;
      const note = 'Pošlete prosím výpis z rejstříku trestů.';
      const values = newApplicant({
        first_name: 'Libuše',
        last_name: 'Vymazaná',
        birth_name: 'Dřívější',
        birth_date: '1974-06-12',
        birth_number: '745612/0003',
        email: 'libuse.vymazana@example.cz',
        telephone: '608 111 222',
        home_street: 'Krátká',
        home_city: 'Kolín',
        contact_street: 'Krátká',
        contact_city: 'Kolín',
        document_number: '112233445',
        employer_current_name: 'Servis Ruzyně s.r.o.',
        employer_current_description: 'Úklid odbavovací haly',
        data_mailbox: 'xyz9876',
        abroad_stay: [{ state: 'AT', reason: 'Sezónní práce ve Vídni' }],
        send_notifications_email: true,
      });
      const historyOf = () =>
        c.t.db.kysely
          .selectFrom('request_status_history')
          .select(['status', 'note', 'certificate'])
          .where('request_id', '=', requestId)
          .orderBy('id')
          .execute();

      beforeAll(async () => {
        const r = await storedRequest(c.t.db, values);
        reference = r.reference;
        requestId = r.id;
        await changeStatus(c.t.db, reference, { status: 'received' });
        await changeStatus(c.t.db, reference, { status: 'documents_needed', note });
        expect(await eraseRequests(c.t.db, [reference], new Date())).toEqual([reference]);
      });

      it('shows what stays (reference, statuses, dates) and nothing personal; offers no action', async () => {
        const page = await get(c, clerk, `/urad/zadost/${reference}`);
        expectConsolePage(page, 200);
        expect(await markupProblems(page.body)).toEqual([]);
        const text = textOf(page.body);
        expect(text).toContain(`Žádost ${reference}`);
        expect(text).toContain('Osobní údaje této žádosti byly vymazány');
        expect(text).toContain('Žádost přijata úřadem');
        expect(text).toContain('Je třeba doložit podklady');
        const strings = personalStrings(values);
        expect(strings).toEqual(expect.arrayContaining(['Libuše', 'Vymazaná', '745612/0003', 'Krátká']));
        for (const s of [...strings, note, '7456120003', 'libuse', 'Libuse', 'Vymazana', 'Dřívější'])
          expect(page.body, s).not.toContain(s);
        // No form but the sign-out, no PDF.
        expect(postForms(page.body)).toEqual(['/urad/odhlaseni']);
        expect(page.body).not.toContain(`/urad/zadost/${reference}/pdf`);
        expectConsolePage(await get(c, clerk, `/urad/zadost/${reference}/pdf`), 404);
        // Found by its reference only, marked, without a name; not in its tab.
        const found = await get(c, clerk, `/urad?reference=${reference}`);
        expect(listed(found.body)).toEqual([reference]);
        expect(found.body).toContain('osobní údaje vymazány');
        for (const s of strings) expect(found.body, s).not.toContain(s);
        expect(listed((await get(c, clerk, '/urad?name=vymazana')).body)).toEqual([]);
        expect(listed((await get(c, clerk, '/urad?birthNumber=7456120003')).body)).toEqual([]);
        expect(listed((await get(c, clerk, '/urad?stav=documents_needed')).body)).not.toContain(reference);
        const admin = await session(c, 'test-admin');
        const audit = await get(c, admin, `/urad/audit?target=${reference}`);
        for (const s of [...strings, note]) expect(audit.body, s).not.toContain(s);
        expect(audit.body).toContain('<td>console.view</td>');
      });

      it('refuses every form sent to it (a note above all): a page saying why, nothing stored, audited gone', async () => {
        const before = await historyOf();
        const from = await lastAuditId(c);
        const forms: Array<[string, Record<string, string>]> = [
          ['stav', { status: 'in_progress', note: 'Ještě jedna poznámka.' }],
          ['stav', { status: 'in_progress', note: 'Ještě jedna poznámka.', potvrdit: '1' }],
          ['stav', { status: 'in_progress', potvrdit: '1' }],
          ['prevzit', {}],
          ['vydat', { certificate: '7301x2042', potvrdit: '1' }],
          ['oprava', { status: 'refused', reason: 'Chyba.', potvrdit: '1' }],
          ['oznameni/1/znovu', {}],
        ];
        for (const [action, form] of forms) {
          const res = await post(c, clerk, `/urad/zadost/${reference}/${action}`, form);
          expectConsolePage(res, 410);
          expect(textOf(res.body), action).toContain('Osobní údaje této žádosti byly vymazány');
          expect(res.body).not.toContain('Ještě jedna poznámka');
          expect(await markupProblems(res.body), action).toEqual([]);
        }
        expect(await historyOf()).toEqual(before);
        expect(before.every((h) => h.note === null && h.certificate === null)).toBe(true);
        const rows = await auditSince(c, from);
        expect(rows.map((r) => [r.actor, r.target, r.outcome])).toEqual(
          forms.map(() => ['staff:test-clerk', reference, 'gone']),
        );
        expect(JSON.stringify(rows)).not.toContain('poznámka');
      });
    });
  });
}

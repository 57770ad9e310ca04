import {
  addDays,
  catalogueEntries,
  currentLegalVersion,
  defaultFormValues,
  type FormFieldName,
  type FormValues,
  isFieldHidden,
  maxLengthFor,
  prefillFromRegister,
} from '@ros/domain';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import type { AppContext } from '../context.js';
import { DEMO_PERSONS } from '../demo/persons.js';
import { registerToday } from '../records/records.js';
import { agreed, newApplicant } from '../test/applicant.js';
import { solvedToken } from '../test/botcheck.js';
import { createTestDb, type TestDb, testDbKinds } from '../test/databases.js';
import { matchFor } from '../test/match.js';
import { seedFormData } from '../test/seed.js';

/** The app as main.ts builds it. */
async function app(ctx: AppContext): Promise<FastifyInstance> {
  const a = await buildApp(ctx);
  await a.ready();
  return a;
}

async function pdfText(bytes: Buffer): Promise<string> {
  const doc = await getDocument({
    data: new Uint8Array(bytes),
    isEvalSupported: false,
    useSystemFonts: false,
  }).promise;
  const parts: string[] = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const page = await doc.getPage(i);
    const content = await page.getTextContent();
    parts.push(content.items.map((it) => ('str' in it ? it.str : '')).join(' '));
  }
  await doc.destroy();
  return parts.join('\n');
}

const body = (values: FormValues, extra: Record<string, unknown> = {}) => ({
  ...values,
  language: 'cs',
  duplicate: false,
  ...agreed(),
  ...extra,
});

/** Štěpán Dvořák of the demo register, as the form prefills him (plus what the user adds). */
function stepan(duplicate = false): FormValues {
  const demo = DEMO_PERSONS.find((p) => p.id === 1001);
  if (!demo) throw new Error('demo person 1001 missing');
  const prefill = prefillFromRegister(demo.person, { duplicate });
  return { ...defaultFormValues(), ...prefill.values, duplicate_type: duplicate ? ['POSKOZENI'] : [] };
}

for (const kind of await testDbKinds()) {
  describe(`validate, submit and PDF (${kind})`, () => {
    let t: TestDb;
    let a: FastifyInstance;

    const submit = async (payload: unknown, headers: Record<string, string> = {}, token?: string | null) =>
      a.inject({
        method: 'POST',
        url: '/api/ros',
        payload: payload as object,
        headers: {
          'content-type': 'application/json',
          ...(token === null ? {} : { recaptcha: token ?? (await solvedToken(a)) }),
          ...headers,
        },
      });
    const count = async () =>
      Number(
        (
          await t.db.kysely
            .selectFrom('requests')
            .select((eb) => eb.fn.countAll<number | string>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const validate = (payload: unknown) =>
      a.inject({ method: 'POST', url: '/api/ros/validate', payload: payload as object });

    beforeAll(async () => {
      t = await createTestDb(kind, { ROS_ALTCHA_MAX_NUMBER: '1000', ROS_RATE_LIMIT_SEARCH: '100000' });
      const ctx: AppContext = { config: t.config, db: t.db, version: 'test' };
      await seedFormData(ctx);
      a = await app(ctx);
    });
    afterAll(async () => {
      await a?.close();
      await t?.cleanup();
    });
    beforeEach(async () => {
      await t.db.kysely.deleteFrom('requests').execute();
    });

    it('stores a valid request once and answers { text, id } with the reference number', async () => {
      const r = await submit(body(newApplicant()));
      expect(r.statusCode, r.body).toBe(201);
      expect(r.headers['cache-control']).toBe('no-store');
      const answer = r.json() as { text: string; id: string; reference: string };
      const year = new Date().getFullYear();
      expect(answer.reference).toMatch(new RegExp(`^ROS-(${year}|${year + 1}|${year - 1})-\\d{6}$`));
      expect(answer.text).toContain(answer.reference);
      expect(answer.id).toMatch(/^[A-Za-z0-9_-]{24}$/);
      expect(await count()).toBe(1);
      const row = await t.db.kysely.selectFrom('requests').selectAll().executeTakeFirstOrThrow();
      expect(row).toMatchObject({ id: answer.id, reference: answer.reference, language: 'cs', via_nia: 0 });
      expect(Number(row.duplicate)).toBe(0);
      expect(row.idempotency_key).toBeNull();
      expect(row.body_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(row.person_key).toMatch(/^rc:/);
      const stored = JSON.parse(row.payload) as FormValues;
      // Normalised for storage: spaces out of the telephone, slash out of the birth number.
      expect(stored.telephone).toBe('777123456');
      expect(stored.birth_number).toBe('9261230006');
      expect(stored.first_name).toBe('Žofie');
      expect(stored.send_notifications_email).toBe(true);
      expect(stored).not.toHaveProperty('language');
      expect(stored.dial_code).toBe('+420');
    });

    it('stores the legal texts version and exactly which boxes were ticked (issue 22)', async () => {
      const r = await submit(
        body(newApplicant({ send_notifications_email: false, send_notifications_phone: true })),
      );
      expect(r.statusCode, r.body).toBe(201);
      const row = await t.db.kysely.selectFrom('requests').selectAll().executeTakeFirstOrThrow();
      expect(row.legal_version).toBe(currentLegalVersion());
      expect(JSON.parse(String(row.declarations))).toEqual({
        signature: true,
        affidavit: true,
        purpose: true,
        notify_email: false,
        notify_phone: true,
      });
    });

    it('refuses declarations shown for NIA without a sign-in (401 SESSION_EXPIRED): never stored on paper', async () => {
      const r = await submit(body(newApplicant(), { legal_channel: 'nia' }));
      expect(r.statusCode, r.body).toBe(401);
      expect(r.json().error.code).toBe('SESSION_EXPIRED');
      expect(await count()).toBe(0);
    });

    it('stores text NFC-normalised; a multi-line reason keeps its line breaks', async () => {
      const r = await submit(
        body(
          newApplicant({
            first_name: 'Z\u030Cofie',
            abroad_stay: [{ state: 'SK', reason: 'Studium\r\nv Bratislavě' }],
          }),
        ),
      );
      expect(r.statusCode, r.body).toBe(201);
      const row = await t.db.kysely.selectFrom('requests').select('payload').executeTakeFirstOrThrow();
      const stored = JSON.parse(row.payload) as FormValues;
      expect(stored.first_name).toBe('Žofie');
      expect(stored.abroad_stay[0]?.reason).toBe('Studium\r\nv Bratislavě');
    });

    it('numbers references one after another and gives each request its own random id', async () => {
      const r1 = await submit(body(newApplicant()));
      const r2 = await submit(body(newApplicant({ first_name: 'Zdeňka' })));
      expect([r1.statusCode, r2.statusCode]).toEqual([201, 201]);
      const n = (ref: string) => Number(ref.slice(-6));
      expect(n(r2.json().reference)).toBe(n(r1.json().reference) + 1);
      expect(r1.json().id).not.toBe(r2.json().id);
    });

    it('answers in English for language en', async () => {
      const r = await submit(body(newApplicant(), { language: 'en' }));
      expect(r.statusCode).toBe(201);
      expect(r.json().text).toMatch(/^Request filled in on the portal under reference number ROS-/);
    });

    const invalidCases: Array<[string, unknown, string, string]> = [
      [
        'birth number that does not match the birth date',
        body(newApplicant({ birth_number: '926124/0006' })),
        'birth_number',
        'birthNumberInvalidDay',
      ],
      [
        'birth number in a bad format',
        body(newApplicant({ birth_number: '92612' })),
        'birth_number',
        'birthNumberInvalidFormat',
      ],
      [
        'telephone with letters',
        body(newApplicant({ telephone: '777 12a 456' })),
        'telephone',
        'phoneInvalidPattern',
      ],
      [
        'telephone of 8 digits',
        body(newApplicant({ telephone: '77712345' })),
        'telephone',
        'phoneInvalidLength',
      ],
      ['e-mail', body(newApplicant({ email: 'zofie@' })), 'email', 'email'],
      ['missing first name', body(newApplicant({ first_name: '  ' })), 'first_name', 'required'],
      ['first name too long', body(newApplicant({ first_name: 'Ž'.repeat(51) })), 'first_name', 'maxlength'],
      [
        'data mailbox missing for delivery by data mailbox',
        body(newApplicant({ data_mailbox: '', delivery_type: 'DATOVKOU' })),
        'data_mailbox',
        'required',
      ],
      [
        'employer start far ahead',
        body(newApplicant({ employer_current_from: '01/2999' })),
        'employer_current_from',
        'monthDateFarFutureDate',
      ],
      ['unknown home country code', body(newApplicant({ home_state: 'XX' })), 'home_state', 'pattern'],
      [
        'unknown country of a stay abroad',
        body(newApplicant({ abroad_stay: [{ state: 'QQ', reason: 'x' }] })),
        'abroad_stay.0.state',
        'pattern',
      ],
      ['unknown delivery type', body(newApplicant({ delivery_type: 'FAX' })), 'delivery_type', 'pattern'],
      ['unknown document type', body(newApplicant({ document_type: 'RIDICAK' })), 'document_type', 'pattern'],
      // A calling code, but not one of the dial-codes list: the server's reference data decides.
      ['unknown dial code', body(newApplicant({ dial_code: '+999' })), 'dial_code', 'pattern'],
      ['dial code not written as one', body(newApplicant({ dial_code: '00420' })), 'dial_code', 'pattern'],
      ['telephone without dial code', body(newApplicant({ dial_code: ' ' })), 'dial_code', 'required'],
      [
        'telephone and no dial_code key',
        (({ dial_code: _omit, ...rest }) => body(rest as FormValues))(newApplicant()),
        'dial_code',
        'required',
      ],
      [
        'a stay abroad without reason',
        body(newApplicant({ abroad_stay: [{ state: 'SK', reason: '' }] })),
        'abroad_stay.0.reason',
        'required',
      ],
      ['missing language', { ...newApplicant(), duplicate: false }, 'language', 'required'],
      ['unknown language', body(newApplicant(), { language: 'de' }), 'language', 'pattern'],
      ['duplicate not a boolean', body(newApplicant(), { duplicate: 'no' }), 'duplicate', 'pattern'],
      // What the applicant agreed to (issue 22): a known version and boxes 1-3 ticked.
      [
        'the signature declaration not ticked',
        body(newApplicant(), { declaration_signature: false }),
        'declaration_signature',
        'required',
      ],
      [
        'no purpose declaration',
        (({ declaration_purpose: _omit, ...rest }) => rest)(body(newApplicant())),
        'declaration_purpose',
        'required',
      ],
      [
        'an unknown legal texts version',
        body(newApplicant(), { legal_version: '99' }),
        'legal_version',
        'pattern',
      ],
      [
        'no legal texts version',
        (({ legal_version: _omit, ...rest }) => rest)(body(newApplicant())),
        'legal_version',
        'required',
      ],
      ['an unknown channel', body(newApplicant(), { legal_channel: 'fax' }), 'legal_channel', 'pattern'],
      [
        'duplicate request without duplicate type',
        body(newApplicant(), { duplicate: true }),
        'duplicate_type',
        'required',
      ],
      // The text policy (issue 11): PostgreSQL answered 500 to a NUL, SQLite stored it.
      [
        'a NUL in a name',
        body(newApplicant({ first_name: 'Žo\u0000fie' })),
        'first_name',
        'invalidCharacters',
      ],
      [
        'a bidirectional override in free text',
        body(newApplicant({ employer_current_description: 'abc\u202Edef' })),
        'employer_current_description',
        'invalidCharacters',
      ],
      [
        'a lone surrogate in a stay abroad',
        body(newApplicant({ abroad_stay: [{ state: 'SK', reason: 'x\uD800y' }] })),
        'abroad_stay.0.reason',
        'invalidCharacters',
      ],
      [
        'a control character in an activity',
        body(
          newApplicant({
            past_activities: [{ from: '01/2010', to: '12/2014', type: '1', field1: 'a\u0007b', field2: 'x' }],
          }),
        ),
        'past_activities.0.field1',
        'invalidCharacters',
      ],
      [
        'a list sent as text',
        body({ ...newApplicant(), past_activities: 'none' as unknown as [] }),
        'past_activities',
        'pattern',
      ],
    ];
    for (const [name, payload, path, message] of invalidCases) {
      it(`refuses ${name} with 400 INVALID_FORM and stores nothing`, async () => {
        const r = await submit(payload);
        expect(r.statusCode, r.body).toBe(400);
        const err = r.json().error as { code: string; fields: Array<{ path: string; message: string }> };
        expect(err.code).toBe('INVALID_FORM');
        expect(err.fields).toContainEqual({ path, message });
        expect(await count()).toBe(0);
      });
    }

    // Every country, municipality, district and code-list field of the catalogue (fields.ts), list
    // items and row columns too: an unknown code is refused at its path, in the mode that shows
    // the field. (Choices are checked by the form schema.)
    const codedFields = catalogueEntries().filter(({ spec }) =>
      ['country', 'municipality', 'district', 'list'].includes(spec.kind),
    );
    it('walks the catalogue: the coded fields are the expected ones', () => {
      expect(codedFields.map((e) => e.path).sort()).toEqual(
        [
          'birth_state',
          'birth_municipality',
          'birth_district',
          'citizen_of_1',
          'citizen_of_2',
          'other_citizenships.*',
          'document_type',
          'home_state',
          'employer_verification_type',
          'contact_state',
          'dial_code',
          'delivery_type',
          'duplicate_type.*',
          'abroad_stay.*.state',
        ].sort(),
      );
    });
    for (const { path, spec } of codedFields) {
      it(`refuses an unknown code in ${path} (a ${spec.kind})`, async () => {
        const [name, , column] = path.split('.') as [FormFieldName, string?, string?];
        const duplicate = isFieldHidden(name, { duplicate: false });
        // '+999' has a dial code's form; 'ZZ' every other code's; "Atlantis" a Czech birthplace
        // typed instead of chosen (issue 21: it got 201).
        const code =
          spec.kind === 'list' && spec.list === 'dial-codes'
            ? '+999'
            : spec.kind === 'municipality'
              ? 'Atlantis'
              : 'ZZ';
        const values: Record<string, unknown> = { ...(duplicate ? stepan(true) : newApplicant()) };
        if (column) values[name] = [{ ...(values[name] as object[])[0], [column]: code }];
        else if (path.endsWith('.*')) values[name] = [code];
        else values[name] = code;
        const extra = duplicate ? { duplicate: true, match: await matchFor(a, '850315/1008') } : {};
        const r = await submit(body(values as unknown as FormValues, extra));
        expect(r.statusCode, r.body).toBe(400);
        expect(r.json().error.code).toBe('INVALID_FORM');
        expect(r.json().error.fields).toContainEqual({ path: path.replace('*', '0'), message: 'pattern' });
      });
    }

    it('stores the dial code with the telephone; without a telephone none is needed or kept', async () => {
      const payloadOf = async (id: string) =>
        JSON.parse(
          (
            await t.db.kysely
              .selectFrom('requests')
              .select('payload')
              .where('id', '=', id)
              .executeTakeFirstOrThrow()
          ).payload,
        ) as FormValues;
      const sk = await submit(body(newApplicant({ dial_code: ' +421 ' })), { 'idempotency-key': 'dial' });
      expect(sk.statusCode, sk.body).toBe(201);
      expect(await payloadOf(sk.json().id)).toMatchObject({ dial_code: '+421', telephone: '777123456' });
      // Part of the body hash: the same body again is the same request, another code is not.
      const again = await submit(body(newApplicant({ dial_code: '+421' })), { 'idempotency-key': 'dial' });
      expect([again.statusCode, again.json().id]).toEqual([200, sk.json().id]);
      const cz = await submit(body(newApplicant()), { 'idempotency-key': 'dial' });
      expect(cz.statusCode).toBe(422);
      expect(await count()).toBe(1);
      const czNew = await submit(body(newApplicant()));
      expect(czNew.statusCode).toBe(201);
      expect(await payloadOf(czNew.json().id)).toMatchObject({ dial_code: '+420' });

      const noPhone = (over: Partial<FormValues>) => body(newApplicant({ telephone: '', ...over }));
      const empty = await submit(noPhone({ first_name: 'Zdeňka', dial_code: '' }));
      expect(empty.statusCode, empty.body).toBe(201);
      expect(await payloadOf(empty.json().id)).toMatchObject({ telephone: '', dial_code: '' });
      // Without a telephone the dial code means nothing: not checked, stored empty.
      const ignored = await submit(noPhone({ first_name: 'Zora', dial_code: '+999' }));
      expect(ignored.statusCode, ignored.body).toBe(201);
      expect((await payloadOf(ignored.json().id)).dial_code).toBe('');
      // A page loaded before dial_code existed sends no such key.
      const { dial_code: _omit, ...old } = newApplicant({ first_name: 'Zita', telephone: '' });
      const oldPage = await submit(body(old as FormValues));
      expect(oldPage.statusCode, oldPage.body).toBe(201);
      expect((await payloadOf(oldPage.json().id)).dial_code).toBe('');
      expect(await count()).toBe(5);
    });

    it('refuses a body that is not an object with 400 INVALID_REQUEST', async () => {
      for (const payload of [[1, 2], 'text', 42]) {
        const r = await a.inject({
          method: 'POST',
          url: '/api/ros',
          payload: JSON.stringify(payload),
          headers: { 'content-type': 'application/json', recaptcha: await solvedToken(a) },
        });
        expect(r.statusCode).toBe(400);
        expect(r.json().error.code).toBe('INVALID_REQUEST');
      }
      expect(await count()).toBe(0);
    });

    it('refuses a match that is not a short string (never read as absent)', async () => {
      for (const extra of [{ match: 42 }, { match: 'm'.repeat(65) }]) {
        const r = await submit(body(newApplicant(), extra));
        expect(r.statusCode, JSON.stringify(extra)).toBe(400);
        expect(r.json().error).toMatchObject({
          code: 'INVALID_FORM',
          fields: [{ path: Object.keys(extra)[0], message: 'pattern' }],
        });
      }
      expect(await count()).toBe(0);
    });

    it('refuses a new request whose last 60 months are not covered', async () => {
      const now = new Date();
      const from = `${String(now.getMonth() + 1).padStart(2, '0')}/${now.getFullYear() - 1}`;
      const r = await submit(body(newApplicant({ employer_current_from: from })));
      expect(r.statusCode).toBe(400);
      expect(r.json().error.code).toBe('TIME_NOT_COVERED');
      expect(await count()).toBe(0);
    });

    it('derives the form context itself: a prefilled person needs no data mailbox, a client read-only list is ignored', async () => {
      const values = stepan();
      expect(values.data_mailbox).toBe('');
      const match = await matchFor(a, '850315/1008');
      const ok = await submit(body(values, { match, readOnly: ['telephone', 'email'], noPrefill: false }));
      expect(ok.statusCode, ok.body).toBe(201);
      const row = await t.db.kysely.selectFrom('requests').select('person_key').executeTakeFirstOrThrow();
      expect(row.person_key).toBe('person:1001');
      // A value the register did not give is checked, whatever the browser claims.
      const bad = await submit(body({ ...values, telephone: '12' }, { match, readOnly: ['telephone'] }));
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.fields).toContainEqual({ path: 'telephone', message: 'phoneInvalidLength' });
    });

    it('binds a request to a register person only through the match of a search (issue 11)', async () => {
      // A new applicant (born 1992-11-23) with a demo person's birth number: every rule runs on it.
      const stolen = await submit(body(newApplicant({ birth_number: '850315/1008' })));
      expect(stolen.statusCode, stolen.body).toBe(400);
      expect(stolen.json().error.fields[0]).toMatchObject({ path: 'birth_number' });
      expect(await count()).toBe(0);

      // Tomáš Král may apply (his certificate is valid 45 more days) ...
      const tomasMatch = await matchFor(a, '880911/1003');
      const tomas = {
        first_name: 'Tomáš',
        last_name: 'Král',
        birth_date: '1988-09-11',
        municipality: '',
        aifo: '',
        document_number: '567890123',
        birth_number: '880911/1003',
        duplicate: false,
        match: tomasMatch,
      };
      expect((await validate(tomas)).json()).toEqual({ okDate: true, okDuplications: true });
      // ... someone else sends a request with his birth number and birth date, without a match or
      // with a forged one: it is a new applicant's, stored under a key of its own.
      const other = newApplicant({ birth_number: '880911/1003', birth_date: '1988-09-11', sex: '1' });
      for (const extra of [{}, { match: 'A'.repeat(43) }]) {
        const r = await submit(body(other, extra));
        expect([200, 201], r.body).toContain(r.statusCode);
      }
      const keys = await t.db.kysely.selectFrom('requests').select('person_key').execute();
      expect(keys.map((k) => k.person_key)).not.toContain('person:1007');
      expect((await validate(tomas)).json()).toEqual({ okDate: true, okDuplications: true });

      // Another person's match does not make another birth number theirs: it is checked in full.
      const stepanMatch = await matchFor(a, '850315/1008');
      const swapped = await submit(
        body({ ...stepan(), birth_number: '880911/1003' }, { match: stepanMatch }),
      );
      expect(swapped.statusCode).toBe(400);
      expect(swapped.json().error.fields[0]).toMatchObject({ path: 'birth_number' });

      // Tomáš's own request, with his match, is his.
      await t.db.kysely.deleteFrom('requests').execute();
      const tomasPerson = DEMO_PERSONS.find((p) => p.id === 1007);
      if (!tomasPerson) throw new Error('demo person 1007 missing');
      const contact = newApplicant();
      const own: FormValues = {
        ...defaultFormValues(),
        ...prefillFromRegister(tomasPerson.person, { duplicate: false }).values,
        contact_street: contact.contact_street,
        contact_city: contact.contact_city,
        contact_zip: contact.contact_zip,
        contact_state: contact.contact_state,
        employer_current_name: contact.employer_current_name,
        employer_current_from: contact.employer_current_from,
      };
      const mine = await submit(body(own, { match: tomasMatch }));
      expect(mine.statusCode, mine.body).toBe(201);
      const row = await t.db.kysely.selectFrom('requests').select('person_key').executeTakeFirstOrThrow();
      expect(row.person_key).toBe('person:1007');
      // The token linked that one request (issue 21); a new search's proves him again.
      expect((await validate(tomas)).json().okDate).toBe(true);
      expect((await validate({ ...tomas, match: await matchFor(a, '880911/1003') })).json().okDate).toBe(
        false,
      );
    });

    it('accepts a duplicate request with its duplicate type; names the hidden sections nowhere', async () => {
      const match = await matchFor(a, '850315/1008');
      const r = await submit(body(stepan(true), { duplicate: true, match }));
      expect(r.statusCode, r.body).toBe(201);
      const row = await t.db.kysely.selectFrom('requests').selectAll().executeTakeFirstOrThrow();
      expect(Number(row.duplicate)).toBe(1);
      expect(JSON.parse(row.payload).duplicate_type).toEqual(['POSKOZENI']);
      const conflicting = await submit(
        body({ ...stepan(true), duplicate_type: ['POSKOZENI', 'ODCIZENI'] }, { duplicate: true, match }),
      );
      expect(conflicting.statusCode).toBe(400);
      const unknown = await submit(
        body({ ...stepan(true), duplicate_type: ['ZTRATA'] }, { duplicate: true, match }),
      );
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json().error.fields).toContainEqual({ path: 'duplicate_type.0', message: 'pattern' });
    });

    it('answers a retry with the same Idempotency-Key with the first answer, also with a spent token', async () => {
      const token = await solvedToken(a);
      const payload = body(newApplicant());
      const first = await submit(payload, { 'idempotency-key': 'key-retry-1' }, token);
      expect(first.statusCode).toBe(201);
      const again = await submit(payload, { 'idempotency-key': 'key-retry-1' }, token);
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual(first.json());
      expect(await count()).toBe(1);
      // Spaces around a value do not make another request (the stored form is normalised).
      const spaced = await submit(
        body(newApplicant({ first_name: ' Žofie ' })),
        { 'idempotency-key': 'key-retry-1' },
        null,
      );
      expect(spaced.statusCode).toBe(200);
      expect(spaced.json().id).toBe(first.json().id);
    });

    it('refuses the same Idempotency-Key with another body: 422 IDEMPOTENCY_KEY_REUSED', async () => {
      const first = await submit(body(newApplicant()), { 'idempotency-key': 'key-reused' });
      expect(first.statusCode).toBe(201);
      const other = await submit(body(newApplicant({ first_name: 'Zdeňka' })), {
        'idempotency-key': 'key-reused',
      });
      expect(other.statusCode).toBe(422);
      expect(other.json().error.code).toBe('IDEMPOTENCY_KEY_REUSED');
      expect(await count()).toBe(1);
      const bad = await submit(body(newApplicant()), { 'idempotency-key': 'bad key with spaces' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.code).toBe('INVALID_IDEMPOTENCY_KEY');
    });

    it('without a key, an identical body is a new request: equal values prove no sender (issue 33)', async () => {
      const first = await submit(body(newApplicant()));
      const second = await submit(body(newApplicant()));
      expect([first.statusCode, second.statusCode]).toEqual([201, 201]);
      expect(second.json().id).not.toBe(first.json().id);
      expect(second.json().reference).not.toBe(first.json().reference);
      expect(second.json().access_code).not.toBe(first.json().access_code);
      expect(await count()).toBe(2);
    });

    it('stores one request for 5 concurrent identical submits with one key', async () => {
      const payload = body(newApplicant());
      const tokens = await Promise.all([1, 2, 3, 4, 5].map(() => solvedToken(a)));
      const keyed = await Promise.all(
        tokens.map((tok) => submit(payload, { 'idempotency-key': 'key-concurrent' }, tok)),
      );
      expect(keyed.map((r) => r.statusCode).sort()).toEqual([200, 200, 200, 200, 201]);
      expect(new Set(keyed.map((r) => r.json().id)).size).toBe(1);
      expect(await count()).toBe(1);
      // Without a key or a spent match token nothing shows a retry (routes/proof.test.ts has those).
    });

    it('refuses a missing, forged or spent bot-check token with 403 and stores nothing', async () => {
      const missing = await submit(body(newApplicant()), {}, null);
      expect(missing.statusCode).toBe(403);
      expect(missing.json().error.code).toBe('BOT_CHECK_MISSING');
      const forged = await submit(
        body(newApplicant()),
        {},
        Buffer.from('{"challenge":{}}').toString('base64'),
      );
      expect(forged.statusCode).toBe(403);
      expect(forged.json().error.code).toBe('BOT_CHECK_INVALID');
      expect(await count()).toBe(0);
      const token = await solvedToken(a);
      expect((await submit(body(newApplicant()), {}, token)).statusCode).toBe(201);
      const spent = await submit(body(newApplicant({ first_name: 'Zdeňka' })), {}, token);
      expect(spent.statusCode).toBe(403);
      expect(spent.json().error.code).toBe('BOT_CHECK_REPLAYED');
      expect(await count()).toBe(1);
    });

    // The first PDF starts a worker thread from TypeScript source (tsx): seconds on a busy machine.
    describe('PDF', { timeout: 60_000 }, () => {
      const getPdf = (id: string) => a.inject({ method: 'GET', url: `/api/ros/pdf/${id}` });

      it('streams the request as a tagged PDF with Czech diacritics, names from the reference data', async () => {
        const r = await submit(body(newApplicant()));
        const { id, reference } = r.json() as { id: string; reference: string };
        const pdf = await getPdf(id);
        expect(pdf.statusCode).toBe(200);
        expect(pdf.headers['content-type']).toBe('application/pdf');
        expect(pdf.headers['content-disposition']).toBe(`attachment; filename="${reference}.pdf"`);
        expect(pdf.headers['cache-control']).toBe('no-store');
        const bytes = pdf.rawPayload;
        expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
        const raw = bytes.toString('latin1');
        expect(raw).toContain('/StructTreeRoot');
        expect(raw).toMatch(/\/Lang \(cs-CZ\)/);
        expect(raw).toContain('DejaVuSans');
        const text = await pdfText(bytes);
        for (const s of [
          reference,
          'Žádost o vydání dokladu o spolehlivosti',
          'Žofie',
          'Řeháková',
          'Ústí nad Labem',
          'Rodné číslo',
          '926123/0006',
          '23.11.1992',
          'Česká republika',
          'Slovensko',
          'Studium v Bratislavě',
          '+420 777 123 456',
          'Praha',
          'E-mailem',
          'Potvrzení zaměstnavatele o zaměstnání',
          'Čestně prohlašuji',
          'Podpis žadatele',
        ]) {
          expect(text).toContain(s);
        }
        // Codes are shown by their names, not as codes.
        expect(text).not.toContain('554782');
        expect(text).not.toContain('OSVEDCENI1');
      });

      it('writes an English request in English', async () => {
        const r = await submit(body(newApplicant(), { language: 'en' }));
        const pdf = await getPdf(r.json().id);
        expect(pdf.statusCode).toBe(200);
        expect(pdf.rawPayload.toString('latin1')).toMatch(/\/Lang \(en-GB\)/);
        const text = await pdfText(pdf.rawPayload);
        for (const s of [
          'Request for a background-check certificate',
          'Date of birth',
          'Žofie',
          'Řeháková',
          'By e-mail',
        ]) {
          expect(text).toContain(s);
        }
      });

      it('prints the chosen dial code, and a request stored before dial codes without one', async () => {
        const sk = await submit(body(newApplicant({ dial_code: '+421' }), { language: 'en' }));
        expect(sk.statusCode).toBe(201);
        expect(await pdfText((await getPdf(sk.json().id)).rawPayload)).toContain('+421 777 123 456');

        const r = await submit(body(newApplicant({ first_name: 'Zdeňka' })));
        const id = r.json().id as string;
        const row = await t.db.kysely
          .selectFrom('requests')
          .select('payload')
          .where('id', '=', id)
          .executeTakeFirstOrThrow();
        const { dial_code: _omit, ...old } = JSON.parse(row.payload) as FormValues;
        await t.db.kysely
          .updateTable('requests')
          .set({ payload: JSON.stringify(old) })
          .where('id', '=', id)
          .execute();
        const pdf = await getPdf(id);
        expect(pdf.statusCode).toBe(200);
        const text = await pdfText(pdf.rawPayload);
        expect(text).toContain('777 123 456');
        expect(text).not.toContain('+420');
      });

      it('answers 404 with one answer for unknown, malformed and expired ids', async () => {
        const r = await submit(body(newApplicant()));
        const id = r.json().id as string;
        const unknown = await getPdf('A'.repeat(24));
        const malformed = await getPdf('abc');
        const injected = await getPdf(encodeURIComponent("' or 1=1 --"));
        await t.db.kysely
          .updateTable('requests')
          .set({ created_at: new Date(Date.now() - 31 * 86_400_000).toISOString() })
          .where('id', '=', id)
          .execute();
        const expired = await getPdf(id);
        const answers = [unknown, malformed, injected, expired];
        for (const res of answers) {
          expect(res.statusCode).toBe(404);
          expect(res.json()).toEqual(unknown.json());
        }
        expect(unknown.json().error.code).toBe('REQUEST_NOT_FOUND');
      });
    });

    describe('validate', () => {
      const validateBody = (over: Record<string, unknown> = {}) => ({
        first_name: 'Štěpán',
        last_name: 'Dvořák',
        birth_date: '1985-03-15',
        municipality: '554782',
        aifo: '',
        document_number: '123456789',
        birth_number: '850315/1008',
        duplicate: false,
        ...over,
      });
      const ok = async (payload: unknown) => {
        const r: LightMyRequestResponse = await validate(payload);
        expect(r.statusCode, r.body).toBe(200);
        return r.json() as { okDate: boolean; okDuplications: boolean; reason?: Record<string, string> };
      };
      const today = () => registerToday(new Date());

      it('okDate is false while the certificate is valid for more than 3 months', async () => {
        // Štěpán's certificate is valid for 300 more days; the search's match token proves him.
        const match = await matchFor(a, '850315/1008');
        // The answer names the rule with its dates (issue 28): valid until, and the first day to apply.
        const until = addDays(today(), 300);
        expect(await ok(validateBody({ match }))).toEqual({
          okDate: false,
          okDuplications: true,
          reason: { rule: 'renewal-window', validUntil: until, from: addDays(until, -90) },
        });
        // Tomáš Král's certificate expires in 45 days: he may apply.
        const tomas = validateBody({
          first_name: 'Tomáš',
          last_name: 'Král',
          birth_date: '1988-09-11',
          birth_number: '880911/1003',
          document_number: '567890123',
          match: await matchFor(a, '880911/1003'),
        });
        expect(await ok(tomas)).toEqual({ okDate: true, okDuplications: true });
      });

      it('names a too long or missing value with its message key', async () => {
        const long = await validate(validateBody({ first_name: 'Š'.repeat(51) }));
        expect(long.statusCode).toBe(400);
        expect(long.json().error.fields).toEqual([{ path: 'first_name', message: 'maxlength' }]);
        const { last_name: _, ...noLastName } = validateBody();
        expect((await validate(noLastName)).json().error.fields).toEqual([
          { path: 'last_name', message: 'required' },
        ]);
      });

      it('tells nothing of a register person without the proof of a search (issue 11)', async () => {
        // Birth number, AIFO, or names + birth date + document: no certificate is looked up.
        expect(await ok(validateBody())).toEqual({ okDate: true, okDuplications: true });
        expect((await ok(validateBody({ birth_number: '', aifo: 'demo-aifo-1001' }))).okDate).toBe(true);
        expect((await ok(validateBody({ duplicate: true }))).okDuplications).toBe(false);
        // A forged or unknown token proves nothing either.
        expect((await ok(validateBody({ match: 'A'.repeat(43) }))).okDate).toBe(true);
        expect((await validate(validateBody({ match: 'A'.repeat(65) }))).statusCode).toBe(400);
      });

      it('without proof, okDate stays true after a request with the same identifiers (no oracle, issue 21)', async () => {
        const zofie = {
          first_name: 'Žofie',
          last_name: 'Řeháková',
          birth_date: '1992-11-23',
          municipality: '554782',
          aifo: '',
          document_number: '987654321',
          birth_number: '9261230006',
          duplicate: false,
        };
        expect((await ok(zofie)).okDate).toBe(true);
        expect((await submit(body(newApplicant()))).statusCode).toBe(201);
        expect((await ok(zofie)).okDate).toBe(true);
      });

      it('okDate is false after a request for the proved person within 30 days', async () => {
        const tomas = validateBody({
          first_name: 'Tomáš',
          last_name: 'Král',
          birth_date: '1988-09-11',
          birth_number: '880911/1003',
          document_number: '567890123',
        });
        expect((await ok({ ...tomas, match: await matchFor(a, '880911/1003') })).okDate).toBe(true);
        await t.db.kysely
          .insertInto('requests')
          .values({
            id: 'x'.repeat(24),
            reference: 'ROS-2026-990001',
            language: 'cs',
            duplicate: 0,
            via_nia: 0,
            payload: '{}',
            person_key: 'person:1007',
            idempotency_key: null,
            body_hash: 'x',
            created_at: new Date().toISOString(),
          })
          .execute();
        // The answer names the repeat window, with the day of that request and the window's end.
        expect(await ok({ ...tomas, match: await matchFor(a, '880911/1003') })).toEqual({
          okDate: false,
          okDuplications: true,
          reason: { rule: 'repeat-request', filedOn: today(), until: addDays(today(), 30) },
        });
        await t.db.kysely
          .updateTable('requests')
          .set({ created_at: new Date(Date.now() - 31 * 86_400_000).toISOString() })
          .execute();
        expect((await ok({ ...tomas, match: await matchFor(a, '880911/1003') })).okDate).toBe(true);
      });

      it('okDuplications is false without a certificate in force or after a duplicate request within 30 days', async () => {
        const match = await matchFor(a, '850315/1008');
        expect(await ok(validateBody({ duplicate: true, match }))).toEqual({
          okDate: true,
          okDuplications: true,
        });
        // Karel Procházka holds no certificate; Josef Veselý's has expired.
        const karel = validateBody({
          first_name: 'Karel',
          last_name: 'Procházka',
          birth_date: '1978-07-04',
          birth_number: '780704/1000',
          document_number: '234567890',
          duplicate: true,
          match: await matchFor(a, '780704/1000'),
        });
        expect((await ok(karel)).okDuplications).toBe(false);
        const josef = await matchFor(a, '500412/123');
        expect(
          (await ok(validateBody({ birth_number: '500412/123', duplicate: true, match: josef })))
            .okDuplications,
        ).toBe(false);
        expect((await submit(body(stepan(true), { duplicate: true, match }))).statusCode).toBe(201);
        const fresh = await matchFor(a, '850315/1008');
        expect((await ok(validateBody({ duplicate: true, match: fresh }))).okDuplications).toBe(false);
        // A duplicate request does not count against a new request, and the other way round.
        const tomas = validateBody({
          first_name: 'Tomáš',
          last_name: 'Král',
          birth_date: '1988-09-11',
          birth_number: '880911/1003',
          match: await matchFor(a, '880911/1003'),
        });
        expect((await ok(tomas)).okDate).toBe(true);
      });

      it('refuses a bad body with 400', async () => {
        for (const payload of [
          validateBody({ extra: 1 }),
          { ...validateBody(), duplicate: undefined },
          validateBody({ first_name: 42 }),
          // The body's texts are the form's values, with the catalogue's lengths (a first name has 50).
          validateBody({ birth_number: 'x'.repeat(maxLengthFor('birth_number') + 1) }),
          validateBody({ first_name: 'J'.repeat(maxLengthFor('first_name') + 1) }),
          validateBody({ last_name: 'K'.repeat(51) }),
          validateBody({ first_name: 'Jan\u0000' }),
          validateBody({ document_number: '12\u202E3' }),
          [],
        ]) {
          const r = await validate(payload);
          expect(r.statusCode, JSON.stringify(payload)).toBe(400);
          expect(r.json().error.code).toBe('INVALID_REQUEST');
        }
      });
    });
  });
}

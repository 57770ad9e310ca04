import { defaultFormValues } from '@ros/domain';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StoredRequest } from '../requests/repository.js';
import { AGREED } from '../test/applicant.js';
import { buildPdfModel, type CodeNames, displayDateTime } from './model.js';
import { PdfBusyError, PdfPool } from './pool.js';

const names: CodeNames = {
  country: (c) => ({ CZ: 'Česká republika', SK: 'Slovensko' })[c] ?? c,
  listItem: (l, c) => `${l}:${c}`,
  municipality: (c) => (c === '554782' ? 'Praha' : c),
  district: (c) => (c === '40924' ? 'Praha' : c),
};

function request(over: Partial<StoredRequest> = {}): StoredRequest {
  return {
    id: 'x'.repeat(24),
    reference: 'ROS-2026-000042',
    language: 'cs',
    duplicate: false,
    viaNia: false,
    values: {
      ...defaultFormValues(),
      first_name: 'Řehoř',
      last_name: 'Šťastný',
      birth_state: 'CZ',
      birth_municipality: '554782',
      birth_district: '40924',
      birth_number: '8503151008',
      abroad_stay: [{ state: 'SK', reason: 'Práce' }],
      past_activities: [{ from: '01/2020', to: '02/2021', type: '3', field1: 'Cestování', field2: '' }],
      duplicate_type: ['POSKOZENI'],
      send_notifications_phone: true,
    },
    personKey: null,
    idempotencyKey: null,
    bodyHash: '',
    legal: { ...AGREED, ticked: { ...AGREED.ticked, notify_phone: true } },
    createdAt: '2026-06-30T22:30:00.000Z',
    ...over,
  };
}

describe('PDF model', () => {
  it('shows every section of a new request with names instead of codes', () => {
    const m = buildPdfModel(request(), names);
    expect(m.title).toBe('Žádost o vydání dokladu o spolehlivosti');
    expect(m.sections.map((s) => s.heading)).toEqual([
      'Osobní údaje',
      'Narození',
      'Totožnost a státní občanství',
      'Adresa trvalého pobytu',
      'Kontaktní adresa',
      'Kontaktní údaje',
      'Současný zaměstnavatel',
      'Předchozí činnosti',
      'Pobyty v zahraničí',
    ]);
    const rows = m.sections.flatMap((s) => [...s.rows, ...s.groups.flatMap((g) => g.rows)]);
    expect(rows).toContainEqual({ label: 'Místo narození', value: 'Praha' });
    expect(rows).toContainEqual({ label: 'Stát', value: 'Slovensko' });
    expect(rows).toContainEqual({ label: 'Rodné číslo', value: '850315/1008' });
    // Type 3 (Other) has no function or field of study.
    expect(rows.some((r) => r.label === 'Funkce nebo obor studia')).toBe(false);
    expect(m.declarations.items.map((d) => d.checked)).toEqual([true, true, true, false, true]);
    expect(m.attachments?.items).toHaveLength(1);
    expect(m.header).toContainEqual({ label: 'Vyplněno', value: '01.07.2026 00:30' });
    expect(m.header).toContainEqual({
      label: 'Stav',
      value: 'Čekáme na Vaši podepsanou žádost – úřad ji zatím nemá',
    });
  });

  it('shows a duplicate request without the sections the form hides, with its reason', () => {
    const m = buildPdfModel(request({ duplicate: true, language: 'en' }), names);
    expect(m.title).toBe('Request for a duplicate background-check certificate');
    const headings = m.sections.map((s) => s.heading);
    expect(headings).toContain('Reason for the duplicate');
    for (const hidden of ['Birth', 'Current employer', 'Past activities', 'Stays abroad']) {
      expect(headings).not.toContain(hidden);
    }
    expect(m.sections.at(-1)?.rows).toEqual([{ label: 'Reason', value: 'duplicate-types:POSKOZENI' }]);
    expect(m.langTag).toBe('en-GB');
  });

  it('writes the telephone with its dial code, grouped', () => {
    const phoneRow = (values: Partial<StoredRequest['values']>) =>
      buildPdfModel(request({ values: { ...request().values, ...values } }), names)
        .sections.flatMap((s) => s.rows)
        .find((r) => r.label === 'Telefon');
    expect(phoneRow({ telephone: '603123456', dial_code: '+421' })).toEqual({
      label: 'Telefon',
      value: '+421 603 123 456',
    });
    // A request stored before the dial code existed has none: the number alone.
    const old = { ...request().values, telephone: '603123456' } as Partial<StoredRequest['values']>;
    delete old.dial_code;
    expect(buildPdfModel(request({ values: old as StoredRequest['values'] }), names).sections).toContainEqual(
      expect.objectContaining({ rows: expect.arrayContaining([{ label: 'Telefon', value: '603 123 456' }]) }),
    );
    // No telephone: the empty mark, never a lone dial code.
    expect(phoneRow({ telephone: '', dial_code: '+420' })).toEqual({ label: 'Telefon', value: '—' });
  });

  it('writes times in Prague', () => {
    expect(displayDateTime('2026-01-15T08:05:00Z')).toBe('15.01.2026 09:05');
  });
});

// Starting a worker thread from TypeScript source (tsx) takes seconds on a busy machine.
describe('PDF worker pool', { timeout: 60_000 }, () => {
  let pool: PdfPool | undefined;
  afterEach(async () => {
    await pool?.close();
  });

  it('renders PDFs in worker threads, several at once', async () => {
    pool = new PdfPool({ size: 2 });
    const model = buildPdfModel(request(), names);
    const pdfs = await Promise.all([1, 2, 3, 4].map(() => pool?.render(model)));
    for (const pdf of pdfs) {
      expect(pdf?.subarray(0, 5).toString()).toBe('%PDF-');
      expect(pdf?.toString('latin1')).toContain('/StructTreeRoot');
    }
  });

  it("counts a job's time from the worker's ready message, not from its start (issue 39)", async () => {
    // The clock is ours: its whole limit passes before the new worker can have said it is ready
    // (a thread starting, its modules loading: slow on a busy machine). A limit that counted
    // the start failed the job right then.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      pool = new PdfPool({ size: 1, timeoutMs: 1000 });
      const pdf = pool.render(buildPdfModel(request(), names));
      vi.advanceTimersByTime(1001);
      expect((await pdf).subarray(0, 5).toString()).toBe('%PDF-');
    } finally {
      vi.useRealTimers();
    }
  });

  it('refuses work past its queue, and everything after close', async () => {
    pool = new PdfPool({ size: 1, maxQueue: 1 });
    const model = buildPdfModel(request(), names);
    const running = pool.render(model);
    const queued = pool.render(model);
    await expect(pool.render(model)).rejects.toBeInstanceOf(PdfBusyError);
    await expect(Promise.all([running, queued])).resolves.toHaveLength(2);
    await pool.close();
    await expect(pool.render(model)).rejects.toThrow('closed');
  });
});

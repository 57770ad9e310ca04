import { createWriteStream, mkdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { type Catalogue, FIELDS, specOrder } from '@ros/domain';
import type { AppContext } from '../context.js';
import { audit, operatorActor } from '../intake/audit.js';
import { requestSummarySchema } from '../intake/contract.js';
import {
  findByReference,
  listRequests,
  markReceived,
  REQUEST_STATUSES,
  type RequestDetail,
  type RequestStatus,
  type RequestSummary,
  toDetail,
} from '../intake/requests.js';
import { historyByReference } from '../intake/status.js';
import { createAccessCodes } from '../notifications/accessCode.js';
import { renderPdf } from '../pdf/render.js';
import { requestPdfModel } from '../pdf/requestPdf.js';
import { parseReference } from '../requests/repository.js';
import { overdueRequests } from '../retention/index.js';
import { dispatch, type Out, usagePrinter } from './dispatch.js';
import { correctCommand, printHistory, statusCommand } from './requestStatus.js';
import { count, isoTime, printTable, time } from './table.js';

/**
 * `ros-admin requests …`: submitted requests for the authority's clerks (docs/intake.md). A
 * request is named by its reference number (on the PDF, in its QR code). Commands that show
 * personal data (show, export) and change a request (received) write an audit row per request
 * (operator = the OS user). Exit codes: 0 done, 1 refused or not found, 2 wrong usage.
 */
const usage = usagePrinter('requests', [
  'Usage: ros-admin requests <command>',
  '  list [--status STATUS] [--since DATE] [--until DATE] [--limit N]',
  '                            oldest first (default 100): reference, status, channel, dates',
  '  show REFERENCE            the request with every form value',
  '  export --since DATE [--until DATE] [--status S] --format json|csv [--out FILE] [--pdf-dir DIR]',
  '                            every request submitted since DATE with its values (to FILE or the',
  '                            standard output), each PDF into DIR; progress on standard error',
  '  received REFERENCE        marks it received (again: nothing changes)',
  '  status REFERENCE STATUS [--note TEXT] [--certificate ID]',
  '                            moves it on (in_progress, documents_needed, issued, refused,',
  '                            withdrawn); notifies the applicant as they asked (docs/status.md)',
  '  correct REFERENCE STATUS --reason TEXT [--certificate ID]',
  '                            corrects a decided request (issued, refused, withdrawn): any status,',
  '                            or issued with the right certificate; the reason is for the applicant',
  '  overdue [--within DAYS]   never-received requests whose personal data goes within DAYS',
  '                            (default 14) or is past due',
]);

export function run(args: string[], ctx: AppContext, out: Out): Promise<number> {
  return dispatch(args, out, usage, {
    list: (rest) => list(rest, ctx, out),
    show: (rest) => show(rest, ctx, out),
    export: (rest) => exportRequests(rest, ctx, out),
    received: (rest) => received(rest, ctx, out),
    status: (rest) => statusCommand(rest, ctx, out, usage),
    correct: (rest) => correctCommand(rest, ctx, out, usage),
    overdue: (rest) => overdue(rest, ctx, out),
  });
}

const SUMMARY_COLUMNS = ['REFERENCE', 'STATUS', 'CHANNEL', 'LANG', 'KIND', 'SUBMITTED', 'RECEIVED'];
const summaryCells = (r: RequestSummary) => [
  r.reference,
  r.status,
  r.channel,
  r.language,
  r.duplicate ? 'duplicate' : 'new',
  time(r.created_at),
  time(r.received_at),
];

function filters(values: { status?: string; since?: string; until?: string }) {
  if (values.status !== undefined && !(REQUEST_STATUSES as readonly string[]).includes(values.status))
    return { problem: `--status must be one of ${REQUEST_STATUSES.join(', ')}` };
  const since = values.since === undefined ? undefined : isoTime(values.since);
  if (since === null) return { problem: '--since must be a date (YYYY-MM-DD) or an ISO time' };
  const until = values.until === undefined ? undefined : isoTime(values.until);
  if (until === null) return { problem: '--until must be a date (YYYY-MM-DD) or an ISO time' };
  return { status: values.status as RequestStatus | undefined, since, until };
}

async function list(args: string[], ctx: AppContext, out: Out): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      status: { type: 'string' },
      since: { type: 'string' },
      until: { type: 'string' },
      limit: { type: 'string' },
    },
  });
  if (positionals.length > 0) return usage(out, `unexpected argument "${positionals[0]}"`);
  const f = filters(values);
  if ('problem' in f) return usage(out, f.problem as string);
  const limit = values.limit === undefined ? 100 : count(values.limit, 100_000);
  if (limit === null) return usage(out, '--limit must be a whole number from 1 to 100000');
  const page = await listRequests(ctx.db, { ...f, limit });
  if (page.items.length === 0) {
    out('No requests.');
    return 0;
  }
  printTable(out, SUMMARY_COLUMNS, page.items.map(summaryCells));
  if (page.next_cursor) out(`(the oldest ${limit}; --since or --limit N shows more)`);
  return 0;
}

/** The reference argument of show/received; a problem line when it is not one. */
function referenceArg(args: string[], command: string): string | { problem: string } {
  const [given, extra] = args;
  if (!given || extra !== undefined) return { problem: `${command} needs one REFERENCE (ROS-YYYY-NNNNNN)` };
  return parseReference(given) ?? { problem: `"${given}" is not a reference (ROS-YYYY-NNNNNN)` };
}

/** A form value as one line of text. */
function valueText(v: unknown): string {
  if (typeof v === 'string') return v === '' ? '-' : v;
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (Array.isArray(v) && v.length === 0) return '-';
  return JSON.stringify(v);
}

async function show(args: string[], ctx: AppContext, out: Out): Promise<number> {
  const reference = referenceArg(args, 'show');
  if (typeof reference !== 'string') return usage(out, reference.problem);
  const actor = operatorActor();
  const found = await findByReference(ctx.db, reference);
  if (found.kind === 'none') {
    out(`ros-admin requests show: no request ${reference}`);
    return 1;
  }
  const s = found.summary;
  out(
    `${s.reference}  ${s.status}  ${s.channel}  ${s.language}  ${s.duplicate ? 'duplicate' : 'new certificate'}`,
  );
  out(`submitted ${time(s.created_at)}, received ${time(s.received_at)}`);
  printHistory(out, s.created_at, await historyByReference(ctx.db, reference));
  if (found.kind === 'erased') {
    out('Its personal data was erased (retention): only the reference, dates and channel remain.');
    return 0;
  }
  await audit(ctx.db, { actor, action: 'requests.read', target: reference });
  const detail = toDetail(found);
  const width = Math.max(...Object.keys(detail.values).map((k) => k.length));
  for (const [k, v] of Object.entries(detail.values)) out(`  ${k.padEnd(width)}  ${valueText(v)}`);
  // What the applicant agreed to: the legal texts' version and each box, as the PDF prints it.
  out(`declarations (legal texts version ${detail.legal.version}):`);
  for (const s of detail.legal.statements) out(`  [${s.ticked ? 'x' : ' '}] ${s.key}: ${s.text}`);
  return 0;
}

async function received(args: string[], ctx: AppContext, out: Out): Promise<number> {
  const reference = referenceArg(args, 'received');
  if (typeof reference !== 'string') return usage(out, reference.problem);
  const r = await markReceived(ctx.db, reference);
  if (r.outcome === 'none') {
    out(`ros-admin requests received: no request ${reference}`);
    return 1;
  }
  await audit(ctx.db, {
    actor: operatorActor(),
    action: 'requests.received',
    target: reference,
    detail: r.outcome,
  });
  out(
    r.outcome === 'received'
      ? `${reference} is marked received (${time(r.summary.received_at)}).`
      : `${reference} was marked received already (${time(r.summary.received_at)}); nothing changed.`,
  );
  return 0;
}

async function overdue(args: string[], ctx: AppContext, out: Out): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { within: { type: 'string' } },
  });
  if (positionals.length > 0) return usage(out, `unexpected argument "${positionals[0]}"`);
  const within = values.within === undefined ? 14 : count(values.within, 3650);
  if (within === null) return usage(out, '--within must be a whole number of days from 1 to 3650');
  const due = await overdueRequests(ctx.db, ctx.config, within);
  if (due.length === 0) {
    out(`No never-received request is due for erasure within ${within} days.`);
    return 0;
  }
  const now = new Date().toISOString();
  printTable(
    out,
    ['REFERENCE', 'ERASED AT', ''],
    due.map((d) => [
      d.reference,
      time(d.due_at),
      d.due_at <= now ? '(past due: the next purge erases it)' : '',
    ]),
  );
  out(`Mark them received (ros-admin requests received REF) or process them before then.`);
  return 0;
}

// --- export ---

/** A CSV cell: quoted when needed; a leading = @ + - (not a number) is defused for spreadsheets. */
export function csvCell(v: unknown): string {
  let s =
    typeof v === 'string'
      ? v
      : v === null || v === undefined
        ? ''
        : typeof v === 'object'
          ? JSON.stringify(v)
          : String(v);
  if (/^[=@\t\r]/.test(s) || /^[+-](?![0-9 ])/.test(s)) s = `'${s}`;
  return /[",\r\n;]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** The summary's columns, in the order of the intake API's summary (its schema is their one list). */
const SUMMARY_FIELDS = Object.keys(requestSummarySchema.shape) as Array<keyof RequestSummary>;

/**
 * The CSV's columns: the summary, every field of the catalogue (in the spec's order: a request
 * stored before a field existed gets an empty cell), then NIA's person identifier. `catalogue`:
 * FIELDS; a test passes one with a field more.
 */
export function csvColumns(catalogue: Catalogue = FIELDS): string[] {
  return [...SUMMARY_FIELDS, ...specOrder(catalogue), 'nia_person_identifier'];
}

/** A request's line of the CSV: its summary and values by csvColumns(catalogue) (a value it lacks: an empty cell). */
export function csvRow(detail: RequestDetail, catalogue: Catalogue = FIELDS): string {
  const flat = {
    ...detail.values,
    ...Object.fromEntries(SUMMARY_FIELDS.map((k) => [k, detail[k]])),
  } as Record<string, unknown>;
  return csvColumns(catalogue)
    .map((k) => csvCell(flat[k]))
    .join(',');
}

async function exportRequests(args: string[], ctx: AppContext, out: Out): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      since: { type: 'string' },
      until: { type: 'string' },
      status: { type: 'string' },
      format: { type: 'string' },
      out: { type: 'string' },
      'pdf-dir': { type: 'string' },
    },
  });
  if (positionals.length > 0) return usage(out, `unexpected argument "${positionals[0]}"`);
  if (values.since === undefined) return usage(out, 'export needs --since DATE');
  if (values.format !== 'json' && values.format !== 'csv') return usage(out, '--format must be json or csv');
  const f = filters(values);
  if ('problem' in f) return usage(out, f.problem as string);
  const format = values.format;
  const pdfDir = values['pdf-dir'] ? resolve(values['pdf-dir']) : undefined;
  if (pdfDir) mkdirSync(pdfDir, { recursive: true });
  const sources = {
    db: ctx.db,
    accessCodes: createAccessCodes(ctx.db, ctx.config),
    publicUrl: ctx.config.publicUrl,
  };
  const file = values.out ? createWriteStream(resolve(values.out), { mode: 0o600 }) : undefined;
  const write = (text: string) => (file ? file.write(`${text}\n`) : out(text));
  const actor = operatorActor();
  const progress = (n: number, done = false) =>
    process.stderr.write(`\rexported ${n} request(s)${done ? '\n' : ''}`);

  let n = 0;
  let after: { created_at: string; reference: string } | undefined;
  if (format === 'json') write('[');
  for (;;) {
    const page = await listRequests(ctx.db, { ...f, after, limit: 100 });
    for (const item of page.items) {
      const found = await findByReference(ctx.db, item.reference);
      if (found.kind !== 'found') continue;
      const detail: RequestDetail = toDetail(found);
      if (format === 'json') {
        write(`${n > 0 ? ',' : ''}${JSON.stringify(detail)}`);
      } else {
        if (n === 0) write(csvColumns().map(csvCell).join(','));
        write(csvRow(detail));
      }
      if (pdfDir) {
        await writeFile(
          join(pdfDir, `${item.reference}.pdf`),
          await renderPdf(await requestPdfModel(sources, found.request)),
          { mode: 0o600 },
        );
      }
      await audit(ctx.db, {
        actor,
        action: 'requests.export',
        target: item.reference,
        detail: pdfDir ? `${format}+pdf` : format,
      });
      n++;
      if (n % 25 === 0) progress(n);
    }
    const last = page.items[page.items.length - 1];
    if (!page.next_cursor || !last) break;
    after = { created_at: last.created_at, reference: last.reference };
  }
  if (format === 'json') write(']');
  if (file)
    await new Promise<void>((done, fail) => file.end((err?: Error | null) => (err ? fail(err) : done())));
  progress(n, true);
  return 0;
}

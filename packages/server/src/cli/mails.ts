import { parseArgs } from 'node:util';
import type { AppContext } from '../context.js';
import { mayResend, requeueMail } from '../mail/queue.js';
import {
  findRequestMail,
  listMails,
  MAIL_STATUSES,
  type MailOverview,
  type MailStatus,
  requeueFailedNotices,
} from '../mail/table.js';
import { parseReference, REQUEST_ID_PATTERN } from '../requests/repository.js';
import { dispatch, usagePrinter } from './dispatch.js';

/**
 * `ros-admin mails …`: the confirmation e-mails of requests sent after NIA sign-in (docs/nia.md
 * "The e-mail and the outbox"). The output names requests by their reference only: never an
 * address or a name, and never the request id (it is the secret of the request's PDF link).
 * Exit codes: 0 done, 1 refused (nothing was changed), 2 wrong usage.
 */

const USAGE = [
  'Usage: ros-admin mails <command>',
  '  list [--status pending|sending|retry|sent|failed] [--limit N]',
  '                            the newest messages of every kind first (default 50): reference,',
  '                            kind (confirmation, status-email, status-sms), status, attempts,',
  '                            next attempt, last error, queued at',
  '  resend-notices [REFERENCE]',
  '                            send the failed status notifications (of one request) again now',
  '  resend REFERENCE|REQUEST_ID [--force]',
  '                            send a failed (or retry) mail again at once; a sent one only with',
  '                            --force (the applicant lost it)',
];

export const DEFAULT_LIST_LIMIT = 50;
const MAX_LIST_LIMIT = 10_000;

const usage = usagePrinter('mails', USAGE);

export function run(args: string[], ctx: AppContext, out: (line: string) => void): Promise<number> {
  return dispatch(args, out, usage, {
    list: (rest) => list(rest, ctx, out),
    resend: (rest) => resend(rest, ctx, out),
    'resend-notices': (rest) => resendNotices(rest, ctx, out),
  });
}

/** An ISO time as stored, to the second; '-' for none. */
const time = (iso: string | null) => (iso ? iso.replace(/\.[0-9]+Z$/, 'Z') : '-');

/** Only pending, retry and sending mails are waiting for an attempt (sending: when its lease ends). */
const nextAttempt = (m: MailOverview) =>
  m.status === 'pending' || m.status === 'retry' || m.status === 'sending' ? time(m.nextAttemptAt) : '-';

const COLUMNS = ['REFERENCE', 'KIND', 'STATUS', 'ATTEMPTS', 'NEXT ATTEMPT', 'LAST ERROR', 'QUEUED AT'];

async function list(args: string[], ctx: AppContext, out: (line: string) => void): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { status: { type: 'string' }, limit: { type: 'string' } },
  });
  if (positionals.length > 0) return usage(out, `unexpected argument "${positionals[0]}"`);
  const status = values.status;
  if (status !== undefined && !(MAIL_STATUSES as readonly string[]).includes(status)) {
    return usage(out, `--status must be one of ${MAIL_STATUSES.join(', ')}`);
  }
  let limit = DEFAULT_LIST_LIMIT;
  if (values.limit !== undefined) {
    limit = /^[0-9]{1,6}$/.test(values.limit) ? Number(values.limit) : 0;
    if (limit < 1 || limit > MAX_LIST_LIMIT) {
      return usage(out, `--limit must be a whole number from 1 to ${MAX_LIST_LIMIT}`);
    }
  }
  const mails = await listMails(ctx.db.kysely, { status: status as MailStatus | undefined, limit });
  if (mails.length === 0) {
    out(status ? `No ${status} mails.` : 'No mails.');
    return 0;
  }
  const rows = mails.map((m) => [
    m.reference,
    m.kind,
    m.status,
    String(m.attempts),
    nextAttempt(m),
    m.lastError ?? '-',
    time(m.createdAt),
  ]);
  const widths = COLUMNS.map((c, i) => Math.max(c.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  out(line(COLUMNS));
  for (const r of rows) out(line(r));
  if (mails.length === limit) out(`(the newest ${limit}; --limit N shows more)`);
  return 0;
}

async function resend(args: string[], ctx: AppContext, out: (line: string) => void): Promise<number> {
  // Not parseArgs: a request id is base64url and may begin with "-" or "--".
  const force = args.includes('--force');
  const positionals = args.filter((a) => a !== '--force' && a !== '--');
  const [given, extra] = positionals;
  if (!given || extra !== undefined) return usage(out, 'resend needs one REFERENCE or REQUEST_ID');
  if (given.startsWith('-') && !REQUEST_ID_PATTERN.test(given)) {
    return usage(out, `unknown option "${given}"`);
  }
  const asReference = parseReference(given);
  const key = asReference
    ? { reference: asReference }
    : REQUEST_ID_PATTERN.test(given)
      ? { requestId: given }
      : null;
  if (!key) return usage(out, `"${given}" is neither a reference (ROS-YYYY-NNNNNN) nor a request id`);

  const found = await findRequestMail(ctx.db.kysely, key);
  if (!found) {
    out(`ros-admin mails resend: no request ${'reference' in key ? key.reference : 'with that id'}`);
    return 1;
  }
  const { reference, mail } = found;
  if (!mail) {
    out(
      `ros-admin mails resend: request ${reference} has no confirmation e-mail (it was sent without NIA sign-in)`,
    );
    return 1;
  }
  if (!mayResend(mail.status, force)) {
    out(
      mail.status === 'sent'
        ? `ros-admin mails resend: the mail of ${reference} was sent at ${time(mail.sentAt)}; add --force to send it again`
        : `ros-admin mails resend: the mail of ${reference} is ${mail.status} already (on its way); nothing was changed`,
    );
    return 1;
  }
  if (!(await requeueMail(ctx.db.kysely, found.requestId, mail))) {
    out(
      `ros-admin mails resend: the mail of ${reference} changed meanwhile (being sent?); nothing was changed`,
    );
    return 1;
  }
  const before =
    mail.status === 'sent'
      ? `sent at ${time(mail.sentAt)}`
      : `${mail.status} after ${mail.attempts} attempt(s)${mail.lastError ? `, last error ${mail.lastError}` : ''}`;
  out(`The mail of ${reference} (${before}) is queued to be sent again now (status retry, attempts 0).`);
  out('A running server sends it at its next look for due mail (every 30 s); else at its next start.');
  return 0;
}

async function resendNotices(args: string[], ctx: AppContext, out: (line: string) => void): Promise<number> {
  const [given, extra] = args.filter((a) => a !== '--');
  if (extra !== undefined) return usage(out, 'resend-notices takes at most one REFERENCE');
  let requestId: string | null = null;
  let reference: string | null = null;
  if (given !== undefined) {
    reference = parseReference(given);
    if (!reference) return usage(out, `"${given}" is not a reference (ROS-YYYY-NNNNNN)`);
    const found = await findRequestMail(ctx.db.kysely, { reference });
    if (!found) {
      out(`ros-admin mails resend-notices: no request ${reference}`);
      return 1;
    }
    requestId = found.requestId;
  }
  const n = await requeueFailedNotices(ctx.db.kysely, requestId);
  const of = reference ? ` of ${reference}` : '';
  if (n === 0) {
    out(`No failed status notifications${of}.`);
    return 0;
  }
  out(`${n} failed status notification(s)${of} queued to be sent again now (status retry, attempts 0).`);
  out('A running server sends them at its next look for due mail (every 30 s); else at its next start.');
  return 0;
}

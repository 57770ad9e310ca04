import { parseArgs } from 'node:util';
import type { AppContext } from '../context.js';
import { audit, operatorActor } from '../intake/audit.js';
import { CERTIFICATE_MISMATCH_MESSAGE } from '../intake/certificate.js';
import { checkCorrection, correctDecision } from '../intake/correction.js';
import { changeStatus, checkStatusChange, type HistoryEntry } from '../intake/status.js';
import { parseReference } from '../requests/repository.js';
import type { Out } from './dispatch.js';
import { time } from './table.js';

/**
 * `ros-admin requests status REF STATUS [--note TEXT] [--certificate ID]` (docs/status.md): the
 * intake API's POST …/status from the command line, with the same checks, history, audit row and
 * notifications (queued here, sent by the running server's mail queue within 30 s).
 */
export async function statusCommand(
  args: string[],
  ctx: AppContext,
  out: Out,
  usage: (out: Out, problem: string) => number,
): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(args);
  } catch (err) {
    return usage(out, (err as Error).message);
  }
  const { values, positionals } = parsed;
  const [given, status, extra] = positionals;
  if (!given || !status || extra !== undefined)
    return usage(
      out,
      'status needs a REFERENCE and a STATUS (received, in_progress, documents_needed, issued, refused, withdrawn)',
    );
  const reference = parseReference(given);
  if (!reference) return usage(out, `"${given}" is not a reference (ROS-YYYY-NNNNNN)`);
  const checked = checkStatusChange({ status, note: values.note, certificate: values.certificate });
  if (!checked.ok)
    return usage(out, checked.problems.map((p) => `${p.path || 'status'} ${p.message}`).join('; '));
  const r = await changeStatus(ctx.db, reference, checked.change);
  const actor = operatorActor();
  if (r.outcome === 'none') {
    await audit(ctx.db, { actor, action: 'requests.status', target: reference, outcome: 'not_found' });
    out(`ros-admin requests status: no request ${reference}`);
    return 1;
  }
  const detail =
    r.outcome === 'changed'
      ? `${checked.change.status} notices=${r.notices}`
      : `${r.outcome} ${checked.change.status}`;
  await audit(ctx.db, {
    actor,
    action: 'requests.status',
    target: reference,
    outcome:
      r.outcome === 'refused' || r.outcome === 'erased' || r.outcome === 'certificateMismatch'
        ? 'invalid'
        : 'ok',
    detail,
  });
  if (r.outcome === 'erased') {
    out(
      `ros-admin requests status: ${reference}'s personal data was erased; a note or certificate is not stored.`,
    );
    return 1;
  }
  if (r.outcome === 'certificateMismatch')
    return usage(out, `certificate ${checked.change.certificate} ${CERTIFICATE_MISMATCH_MESSAGE}`);
  if (r.outcome === 'refused') {
    out(
      `ros-admin requests status: ${reference} is ${r.summary.status}; it cannot become ${checked.change.status}.`,
    );
    return 1;
  }
  out(
    r.outcome === 'changed'
      ? `${reference} is now ${checked.change.status}${r.notices > 0 ? ` (${r.notices} notification(s) queued)` : ''}.`
      : `${reference} is ${checked.change.status} already; nothing changed.`,
  );
  return 0;
}

/**
 * `ros-admin requests correct REF STATUS --reason TEXT [--certificate ID]` (docs/status.md
 * "Correcting a decision"): the intake API's POST …/correction from the command line, with the
 * same checks (intake/correction.ts), history row, notifications and audit row
 * (`requests.correct`, actor `operator:USER`). Exit codes as `requests status`: 0 corrected (or
 * the same correction again), 1 not found, erased, not decided or no change, 2 wrong usage or a
 * certificate not of the request's person.
 */
export async function correctCommand(
  args: string[],
  ctx: AppContext,
  out: Out,
  usage: (out: Out, problem: string) => number,
): Promise<number> {
  let parsed: ReturnType<typeof parseCorrect>;
  try {
    parsed = parseCorrect(args);
  } catch (err) {
    return usage(out, (err as Error).message);
  }
  const { values, positionals } = parsed;
  const [given, status, extra] = positionals;
  if (!given || !status || extra !== undefined)
    return usage(
      out,
      'correct needs a REFERENCE, a STATUS (received, in_progress, documents_needed, issued, refused, withdrawn) and --reason TEXT',
    );
  const reference = parseReference(given);
  if (!reference) return usage(out, `"${given}" is not a reference (ROS-YYYY-NNNNNN)`);
  const checked = checkCorrection({ status, reason: values.reason, certificate: values.certificate });
  if (!checked.ok)
    return usage(
      out,
      checked.problems
        .map((p) => `${p.path === 'reason' ? '--reason' : p.path || 'status'} ${p.message}`)
        .join('; '),
    );
  const r = await correctDecision(ctx.db, reference, checked.correction);
  const actor = operatorActor();
  const action = 'requests.correct';
  if (r.outcome === 'none') {
    await audit(ctx.db, { actor, action, target: reference, outcome: 'not_found' });
    out(`ros-admin requests correct: no request ${reference}`);
    return 1;
  }
  if (r.outcome === 'invalid')
    return usage(out, r.problems.map((p) => `${p.path || 'status'} ${p.message}`).join('; '));
  await audit(ctx.db, {
    actor,
    action,
    target: reference,
    outcome:
      r.outcome === 'corrected' || r.outcome === 'already'
        ? 'ok'
        : r.outcome === 'erased'
          ? 'gone'
          : 'invalid',
    detail:
      r.outcome === 'corrected'
        ? `${r.from}>${status} notices=${r.notices}`
        : `${r.outcome} ${checked.correction.status}`,
  });
  const to = checked.correction.status;
  switch (r.outcome) {
    case 'erased':
      out(`ros-admin requests correct: ${reference}'s personal data was erased; a reason is not stored.`);
      return 1;
    case 'certificateMismatch':
      return usage(out, `certificate ${checked.correction.certificate} ${CERTIFICATE_MISMATCH_MESSAGE}`);
    case 'notDecided':
      out(
        `ros-admin requests correct: ${reference} is ${r.summary.status}, not decided; move it on with requests status.`,
      );
      return 1;
    case 'unchanged':
      out(
        `ros-admin requests correct: ${reference} is ${r.summary.status} already; a correction must change the decision${to === 'issued' ? ' (or its certificate)' : ''}.`,
      );
      return 1;
    case 'already':
      out(`${reference} was corrected to ${to} already; nothing changed.`);
      return 0;
    case 'corrected':
      out(
        `${reference} corrected: ${r.from} -> ${to}${r.notices > 0 ? ` (${r.notices} notification(s) queued)` : ''}.`,
      );
      return 0;
  }
}

function parseCorrect(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: true,
    options: { reason: { type: 'string' }, certificate: { type: 'string' } },
  });
}

function parse(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: true,
    options: { note: { type: 'string' }, certificate: { type: 'string' } },
  });
}

/** The history lines of `requests show`. */
export function printHistory(out: Out, submittedAt: string, history: HistoryEntry[]): void {
  out('history:');
  out(`  ${time(submittedAt)}  new`);
  for (const h of history) {
    const extra = [
      h.certificate ? `certificate ${h.certificate}` : '',
      h.note ? `${h.correction ? 'reason' : 'note'}: ${h.note}` : '',
    ]
      .filter(Boolean)
      .join('  ');
    // A correction (issue 38) says so; its note is the reason.
    out(`  ${time(h.at)}  ${h.correction ? 'corrected to ' : ''}${h.status}${extra ? `  ${extra}` : ''}`);
  }
}

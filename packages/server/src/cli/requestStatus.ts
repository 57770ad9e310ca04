import { parseArgs } from 'node:util';
import type { AppContext } from '../context.js';
import { audit, operatorActor } from '../intake/audit.js';
import { CERTIFICATE_MISMATCH_MESSAGE } from '../intake/certificate.js';
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
    const extra = [h.certificate ? `certificate ${h.certificate}` : '', h.note ? `note: ${h.note}` : '']
      .filter(Boolean)
      .join('  ');
    out(`  ${time(h.at)}  ${h.status}${extra ? `  ${extra}` : ''}`);
  }
}

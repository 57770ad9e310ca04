import type { AppContext } from '../context.js';
import { operatorActor } from '../intake/audit.js';
import { purge } from '../retention/index.js';
import type { Out } from './dispatch.js';
import { time } from './table.js';

/**
 * `ros-admin purge [--dry-run]`: the retention purge the server runs by itself (docs/intake.md
 * "Retention"), now; with --dry-run only what it would do.
 */
export async function run(args: string[], ctx: AppContext, out: Out): Promise<number> {
  const dryRun = args.includes('--dry-run');
  const other = args.find((a) => a !== '--dry-run');
  if (other !== undefined || args.length > 1) {
    if (other === 'help' || other === '--help') {
      out('Usage: ros-admin purge [--dry-run]');
      return 0;
    }
    out(`ros-admin purge: unexpected argument "${other}"`);
    out('Usage: ros-admin purge [--dry-run]');
    return 2;
  }
  const r = await purge(ctx.db, ctx.config, { dryRun, actor: operatorActor() });
  const verb = dryRun ? 'Would erase' : 'Erased';
  out(
    `${verb} the personal data of ${r.erased.length} request(s) (received more than ${ctx.config.retentionReceivedDays} days ago, or never received and submitted more than ${ctx.config.retentionUnreceivedDays} days ago).`,
  );
  for (const e of r.erased) out(`  ${e.reference}  ${e.reason}  due ${time(e.due_at)}`);
  // Requests erased earlier that still held something (a note the code before the 410 stored).
  if (r.erasedAgain.length > 0) {
    out(
      `${dryRun ? 'Would clear' : 'Cleared'} what ${r.erasedAgain.length} request(s) erased earlier still held (a note or certificate added after the erasure).`,
    );
    for (const reference of r.erasedAgain) out(`  ${reference}`);
  }
  out(
    `${dryRun ? 'Would delete' : 'Deleted'}: ${r.sessions} expired NIA session(s), ${r.botTokens} spent bot-check token(s), ${r.matchTokens} expired search match(es), ${r.outboxFiles} outbox mail file(s).`,
  );
  return 0;
}

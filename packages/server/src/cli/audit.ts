import { parseArgs } from 'node:util';
import type { AppContext } from '../context.js';
import { listAudit } from '../intake/audit.js';
import { dispatch, type Out, usagePrinter } from './dispatch.js';
import { count, isoTime, printTable, time } from './table.js';

/** `ros-admin audit list`: the audit trail, newest first (docs/intake.md "Audit"). */
const usage = usagePrinter('audit', [
  'Usage: ros-admin audit <command>',
  '  list [--since DATE] [--target REF|record:ID|person:ID|token:NAME] [--actor token:NAME|operator:USER|system]',
  '       [--limit N]          newest first (default 100)',
]);

export function run(args: string[], ctx: AppContext, out: Out): Promise<number> {
  return dispatch(args, out, usage, {
    list: async (rest) => {
      const { values, positionals } = parseArgs({
        args: rest,
        allowPositionals: true,
        options: {
          since: { type: 'string' },
          target: { type: 'string' },
          actor: { type: 'string' },
          limit: { type: 'string' },
        },
      });
      if (positionals.length > 0) return usage(out, `unexpected argument "${positionals[0]}"`);
      const since = values.since === undefined ? undefined : isoTime(values.since);
      if (since === null) return usage(out, '--since must be a date (YYYY-MM-DD) or an ISO time');
      const limit = values.limit === undefined ? 100 : count(values.limit, 100_000);
      if (limit === null) return usage(out, '--limit must be a whole number from 1 to 100000');
      const rows = await listAudit(ctx.db, {
        since,
        target: values.target?.toUpperCase().startsWith('ROS-') ? values.target.toUpperCase() : values.target,
        actor: values.actor,
        limit,
      });
      if (rows.length === 0) {
        out('No audit rows.');
        return 0;
      }
      printTable(
        out,
        ['AT', 'ACTOR', 'ACTION', 'TARGET', 'OUTCOME', 'DETAIL'],
        rows.map((r) => [time(r.at), r.actor, r.action, r.target ?? '-', r.outcome, r.detail ?? '']),
      );
      if (rows.length === limit) out(`(the newest ${limit}; --limit N shows more)`);
      return 0;
    },
  });
}

import { parseArgs } from 'node:util';
import type { AppContext } from '../context.js';
import { audit, operatorActor } from '../intake/audit.js';
import {
  createToken,
  listTokens,
  parseScopes,
  revokeToken,
  SCOPES,
  TOKEN_NAME_PATTERN,
} from '../intake/tokens.js';
import { dispatch, type Out, usagePrinter } from './dispatch.js';
import { printTable, time } from './table.js';

/**
 * `ros-admin tokens …`: the intake API's bearer tokens (docs/intake.md). A token is printed
 * once, at creation; the database keeps its sha256. Exit codes: 0 done, 1 refused, 2 usage.
 */
const usage = usagePrinter('tokens', [
  'Usage: ros-admin tokens <command>',
  '  create --name NAME --scopes SCOPE[,SCOPE…]',
  `                            scopes: ${SCOPES.join(', ')}; prints the token once`,
  '  list                      names, scopes, created, last use, revoked',
  '  revoke NAME               the token stops working at once (its name stays taken)',
]);

export function run(args: string[], ctx: AppContext, out: Out): Promise<number> {
  return dispatch(args, out, usage, {
    create: async (rest) => {
      const { values, positionals } = parseArgs({
        args: rest,
        allowPositionals: true,
        options: { name: { type: 'string' }, scopes: { type: 'string' } },
      });
      if (positionals.length > 0) return usage(out, `unexpected argument "${positionals[0]}"`);
      const name = values.name ?? '';
      if (!TOKEN_NAME_PATTERN.test(name))
        return usage(
          out,
          '--name must be 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit',
        );
      const { scopes, unknown } = parseScopes(values.scopes ?? '');
      if (unknown.length > 0)
        return usage(out, `unknown scope "${unknown[0]}" (known: ${SCOPES.join(', ')})`);
      if (scopes.length === 0) return usage(out, '--scopes needs at least one scope');
      const actor = operatorActor();
      const token = await createToken(ctx.db, name, scopes, actor);
      if (!token) {
        out(`ros-admin tokens create: the name "${name}" is taken (also by a revoked token); pick another`);
        return 1;
      }
      await audit(ctx.db, {
        actor,
        action: 'tokens.create',
        target: `token:${name}`,
        detail: scopes.join(' '),
      });
      out(`Token "${name}" (${scopes.join(', ')}):`);
      out(token);
      out('It is shown only now: store it where the back office keeps its secrets.');
      return 0;
    },
    list: async (rest) => {
      if (rest.length > 0) return usage(out, `unexpected argument "${rest[0]}"`);
      const tokens = await listTokens(ctx.db);
      if (tokens.length === 0) {
        out('No tokens.');
        return 0;
      }
      printTable(
        out,
        ['NAME', 'SCOPES', 'CREATED', 'BY', 'LAST USE', 'REVOKED'],
        tokens.map((t) => [
          t.name,
          t.scopes.join(','),
          time(t.createdAt),
          t.createdBy,
          time(t.lastUsedAt),
          time(t.revokedAt),
        ]),
      );
      return 0;
    },
    revoke: async (rest) => {
      const [name, extra] = rest;
      if (!name || extra !== undefined) return usage(out, 'revoke needs one NAME');
      const r = await revokeToken(ctx.db, name);
      if (r === 'unknown') {
        out(`ros-admin tokens revoke: no token "${name}"`);
        return 1;
      }
      if (r === 'revoked')
        await audit(ctx.db, { actor: operatorActor(), action: 'tokens.revoke', target: `token:${name}` });
      out(r === 'revoked' ? `Token "${name}" is revoked.` : `Token "${name}" was revoked already.`);
      return 0;
    },
  });
}

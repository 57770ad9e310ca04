import type { FastifyInstance } from 'fastify';
import { listAudit } from '../../intake/audit.js';
import { AuditPage } from '../pages/SimplePages.js';
import { CONSOLE_PATH } from '../staff.js';
import { auditConsole, type ConsoleDeps, frameOf, gate, sendPage } from './common.js';

/** How many rows the audit page shows (newest first; narrow it by who or which request). */
export const AUDIT_ROWS = 200;

/** GET /urad/audit: the audit trail for the administrator; looking at it is audited too. */
export function auditRoutes(app: FastifyInstance, deps: ConsoleDeps): void {
  app.get(`${CONSOLE_PATH}/audit`, async (req, reply) => {
    const staff = await gate(deps, req, reply, 'administer');
    if (!staff) return reply;
    const q = (req.query ?? {}) as Record<string, unknown>;
    const actor = typeof q.actor === 'string' ? q.actor.trim().slice(0, 120) : '';
    const target = typeof q.target === 'string' ? q.target.trim().slice(0, 60) : '';
    const rows = await listAudit(deps.db, {
      ...(actor ? { actor } : {}),
      ...(target ? { target } : {}),
      limit: AUDIT_ROWS,
    });
    await auditConsole(deps, staff, 'audit', target || null, 'ok', `rows=${rows.length}`);
    return sendPage(reply, 200, AuditPage({ frame: frameOf(deps, staff, 'audit'), rows, actor, target }));
  });
}

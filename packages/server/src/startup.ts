import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from './context.js';

/**
 * Work done once at start, after migrations: reference data, then demo data.
 * Each step is owned by its module; add steps here in order.
 */
export async function startup(_ctx: AppContext, _log: FastifyBaseLogger): Promise<void> {}

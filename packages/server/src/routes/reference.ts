import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../context.js';

export const referenceRoutes: FastifyPluginAsync<AppContext> = async (_app, _ctx) => {};

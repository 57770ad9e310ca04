import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../context.js';

export const metadataRoutes: FastifyPluginAsync<AppContext> = async (_app, _ctx) => {};

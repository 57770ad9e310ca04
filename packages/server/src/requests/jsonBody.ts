import { type BodyLimits, scanJsonShape } from '@ros/domain';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors.js';

/**
 * The JSON body parser of the public POST calls (issue 11): before JSON.parse sees a body, its
 * shape is checked against the limits the shared rules give for that call (packages/domain,
 * bounds.ts): no deeper nesting and no more values than a valid body can have. JSON.parse
 * itself takes 0.1-0.2 s on a 1 MB text of nested brackets, so it only ever gets small, flat
 * texts. The byte size is the route's `bodyLimit` (413 PAYLOAD_TOO_LARGE, unread past the limit).
 * Registered inside one route plugin, it replaces Fastify's JSON parser for that plugin only.
 * Answers: 400 INVALID_REQUEST for a body too deep, with too many values, or not JSON.
 */
export function useBoundedJson(app: FastifyInstance, limits: BodyLimits): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = body as string;
    const shape = scanJsonShape(text, limits);
    if (shape === 'bytes') {
      done(new ApiError(413, 'PAYLOAD_TOO_LARGE', 'The request body is too large'), undefined);
      return;
    }
    if (shape) {
      const what = shape === 'depth' ? 'nested too deeply' : 'made of too many values';
      done(new ApiError(400, 'INVALID_REQUEST', `The request body is ${what}`), undefined);
      return;
    }
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new ApiError(400, 'INVALID_REQUEST', 'The request body is not valid JSON'), undefined);
    }
  });
}

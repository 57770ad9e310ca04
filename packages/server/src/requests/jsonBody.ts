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
 * Answers: 400 INVALID_REQUEST for a body too deep or with too many values, 400 INVALID_JSON for
 * one that is not JSON (docs/errors.md).
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
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      done(new ApiError(400, 'INVALID_JSON', 'The request body is not valid JSON'), undefined);
      return;
    }
    if (PROTO_KEY.test(text) && hasProtoKey(value)) {
      done(new ApiError(400, 'INVALID_REQUEST', 'The request body has a forbidden key'), undefined);
      return;
    }
    done(null, value);
  });
}

/**
 * Limits for any other JSON body the app may get (an unknown path, a call added later): as
 * large as the app's bodyLimit, but never deep or made of very many values, so that no JSON
 * body costs more than a few ms however it is shaped. Each public POST sets its own, tighter.
 */
export const ANY_JSON_LIMITS: BodyLimits = { maxBytes: 1024 * 1024, maxDepth: 16, maxValues: 10_000 };

/** A `__proto__` key, also written with escapes (what Fastify's own parser refuses too). */
const PROTO_KEY =
  /"(?:_|\\u005[Ff]){2}(?:p|\\u0070)(?:r|\\u0072)(?:o|\\u006[Ff])(?:t|\\u0074)(?:o|\\u006[Ff])(?:_|\\u005[Ff]){2}"/;

/** Whether a parsed value holds an own `__proto__` key anywhere (small: the shape was bounded). */
function hasProtoKey(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object') continue;
    if (Object.hasOwn(v, '__proto__')) return true;
    stack.push(...Object.values(v));
  }
  return false;
}

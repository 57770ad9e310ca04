import type { IncomingMessage, ServerResponse } from 'node:http';
import proxyAddr from 'proxy-addr';
import { API_SECURITY_HEADERS } from './apiHeaders.js';
import { apiErrorBody } from './errors.js';
import type { ValidityCheck } from './records/validityCheck.js';

/**
 * The validity check opened from QR codes is the app's one hot public endpoint, and the one an
 * enumeration attempt would hammer. Fastify's routing, hooks, per-request logger and reply object
 * cost more than the check itself (bench/README.md), so plain `GET /api/ros/{token}/validity`
 * requests are answered here, in the HTTP server's request handler, before Fastify sees them:
 * the same shared check (records/validityCheck.ts), the same headers, the same bodies and status
 * codes as the Fastify route (a test compares them answer by answer). Everything else is passed on
 * to Fastify: other methods, ids that Fastify would decode (`%`) or not route (longer than its
 * 100-character parameter limit, an empty or nested id), and every request once the app is closing
 * (Fastify answers those 503).
 *
 * What it leaves out on purpose: the per-request log line (the token is the key to a person's
 * certificate and stays out of logs; errors cannot happen here: the check never throws).
 */
export interface ValidityFastPath {
  /** Answers the request and returns true, or returns false to pass it on to Fastify. */
  handle(req: IncomingMessage, res: ServerResponse): boolean;
  /** Set once the check is open; until then everything goes to Fastify. */
  check: ValidityCheck | undefined;
  /** Set when the app starts closing: from then on Fastify answers (503). */
  closing: boolean;
}

const PREFIX = '/api/ros/';
const SUFFIX = '/validity';
/** Fastify's (find-my-way's) default maxParamLength: longer ids are not routed there. */
const MAX_PARAM_LENGTH = 100;

const JSON_TYPE = 'application/json; charset=utf-8';
const BASE_HEADERS = { ...API_SECURITY_HEADERS, 'cache-control': 'no-store', 'content-type': JSON_TYPE };

export function createValidityFastPath(opts: { trustProxy: boolean }): ValidityFastPath {
  // The client address as Fastify computes `request.ip` with the same trustProxy setting.
  const clientAddress = opts.trustProxy
    ? (req: IncomingMessage) => proxyAddr(req, () => true)
    : (req: IncomingMessage) => req.socket.remoteAddress ?? '';
  const errorAnswers = new Map<object, { body: string; length: string }>();

  const fast: ValidityFastPath = {
    check: undefined,
    closing: false,
    handle(req, res) {
      const check = fast.check;
      if (check === undefined || fast.closing || req.method !== 'GET') return false;
      const url = req.url ?? '';
      if (!url.startsWith(PREFIX)) return false;
      const q = url.indexOf('?');
      const end = q === -1 ? url.length : q;
      if (end - SUFFIX.length <= PREFIX.length || url.lastIndexOf(SUFFIX, end) !== end - SUFFIX.length) {
        return false;
      }
      const token = url.slice(PREFIX.length, end - SUFFIX.length);
      if (token.length > MAX_PARAM_LENGTH || token.includes('/') || token.includes('%')) return false;

      const result = check.answer(token, clientAddress(req));
      if ('json' in result) {
        res.writeHead(200, { ...BASE_HEADERS, 'content-length': String(Buffer.byteLength(result.json)) });
        res.end(result.json);
        return true;
      }
      const err = result.error;
      let answer = errorAnswers.get(err);
      if (answer === undefined) {
        const body = JSON.stringify(apiErrorBody(err));
        answer = { body, length: String(Buffer.byteLength(body)) };
        // The 404 is one shared object; each 429 is new (its Retry-After differs): keep only the first.
        if (err.statusCode === 404) errorAnswers.set(err, answer);
      }
      res.writeHead(err.statusCode, { ...BASE_HEADERS, ...err.headers, 'content-length': answer.length });
      res.end(answer.body);
      return true;
    },
  };
  return fast;
}

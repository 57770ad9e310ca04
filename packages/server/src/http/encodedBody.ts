import { promisify } from 'node:util';
import { brotliCompress, deflate, gzip, constants as zlib } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * A large public answer that is the same for everyone until its data changes (the reference
 * lists, /api/docs), held ready in every encoding the server offers, so that no request costs
 * more than the cheapest (issue 33 item 2: a `deflate` request compressed the 531 KB municipality
 * list on every call, 16-17 ms of CPU each, and one without Accept-Encoding turned the string into
 * bytes each time, 4.2 ms). Each encoding is made on its first use, in the thread pool, and kept
 * with the body; a new version of the data is a new EncodedBody.
 */
export const ENCODINGS = ['br', 'gzip', 'deflate', 'identity'] as const;
export type Encoding = (typeof ENCODINGS)[number];

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);
const deflated = promisify(deflate);

/** Smaller answers go as they are (as @fastify/compress's threshold): compression gains nothing. */
export const COMPRESS_FROM = 1024;

export interface EncodedBody {
  readonly text: string;
  /** The body in `encoding`: the same Buffer every time (made on the first call). */
  encoded(encoding: Encoding): Promise<Buffer>;
}

export function encodedBody(text: string): EncodedBody {
  const made = new Map<Encoding, Promise<Buffer>>();
  const make = (encoding: Encoding): Promise<Buffer> => {
    const raw = Buffer.from(text);
    switch (encoding) {
      case 'br':
        // brotli's quality 5: near 9's size at a fraction of its time.
        return brotli(raw, {
          params: { [zlib.BROTLI_PARAM_QUALITY]: 5, [zlib.BROTLI_PARAM_SIZE_HINT]: raw.length },
        });
      case 'gzip':
        return gzipped(raw, { level: 6 });
      case 'deflate':
        return deflated(raw, { level: 6 });
      default:
        return Promise.resolve(raw);
    }
  };
  return {
    text,
    encoded(encoding) {
      let done = made.get(encoding);
      if (!done) {
        done = make(encoding);
        made.set(encoding, done);
        done.catch(() => made.delete(encoding));
      }
      return done;
    },
  };
}

/** Our preference among encodings of equal weight: the smallest first. */
const PREFERENCE: Record<Encoding, number> = { br: 4, gzip: 3, deflate: 2, identity: 1 };

/**
 * The encoding to answer in (RFC 9110 section 12.5.3): the client's highest q-value among ours,
 * the smallest of equal weight; `*` stands for what it does not name; identity is acceptable
 * unless refused (`identity;q=0`, or `*;q=0` without naming identity). When the client refuses
 * every one, identity anyway (the RFC allows it; a 406 would only make it retry).
 */
export function negotiateEncoding(acceptEncoding: string | undefined): Encoding {
  if (!acceptEncoding?.trim()) return 'identity';
  const q = new Map<string, number>();
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [coding = '', ...params] = part.trim().split(';');
    const raw = params.map((p) => /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    const value = raw === undefined ? 1 : Number(raw);
    const name = coding.trim();
    if (name && Number.isFinite(value) && !q.has(name)) q.set(name, Math.min(1, Math.max(0, value)));
  }
  // Identity unnamed: acceptable, but after every coding the client names.
  const weight = (e: Encoding) => q.get(e) ?? q.get('*') ?? (e === 'identity' ? Number.MIN_VALUE : 0);
  let best: Encoding = 'identity';
  let bestWeight = -1;
  for (const e of ENCODINGS) {
    const w = weight(e);
    if (w > 0 && (w > bestWeight || (w === bestWeight && PREFERENCE[e] > PREFERENCE[best]))) {
      best = e;
      bestWeight = w;
    }
  }
  return best;
}

/** Sends `body` in the encoding the request asks for (Vary and Content-Encoding set). */
export async function sendEncoded(req: FastifyRequest, reply: FastifyReply, body: EncodedBody) {
  if (body.text.length < COMPRESS_FROM) return reply.send(await body.encoded('identity'));
  reply.header('Vary', 'Accept-Encoding');
  const encoding = negotiateEncoding(req.headers['accept-encoding']);
  if (encoding !== 'identity') reply.header('Content-Encoding', encoding);
  return reply.send(await body.encoded(encoding));
}

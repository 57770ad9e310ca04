import type { FastifyInstance } from 'fastify';
import { solvedToken } from './botcheck.js';

/**
 * What the browser holds after a search found a register person: the answer's `match` token,
 * which validate and submit send back (requests/matchToken.ts). Found by birth number.
 */
export async function matchFor(app: FastifyInstance, birthNumber: string): Promise<string> {
  const r = await app.inject({
    method: 'POST',
    url: '/api/ros/search-birth-number',
    payload: { birth_number: birthNumber },
    headers: { recaptcha: await solvedToken(app) },
  });
  const match = r.statusCode === 200 ? (r.json() as { match?: unknown }).match : undefined;
  if (typeof match !== 'string') throw new Error(`search-birth-number answered ${r.statusCode}, no match`);
  return match;
}

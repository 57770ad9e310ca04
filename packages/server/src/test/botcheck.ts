import { type Challenge, solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import type { FastifyInstance } from 'fastify';

/**
 * The ALTCHA side of the browser, for API tests: solve a challenge and build the token the
 * widget sends in the `Recaptcha` header (base64 JSON `{ challenge, solution }`).
 */

/** Solves `challenge` and returns its token. */
export async function altchaToken(challenge: Challenge): Promise<string> {
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('challenge not solved');
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

/** Fetches a challenge from the app (GET /api/ros/altcha-challenge), solves it and returns its token. */
export async function solvedToken(app: FastifyInstance): Promise<string> {
  const res = await app.inject({ method: 'GET', url: '/api/ros/altcha-challenge' });
  if (res.statusCode !== 200) throw new Error(`altcha-challenge answered ${res.statusCode}`);
  return altchaToken(res.json() as Challenge);
}

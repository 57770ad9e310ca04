import { formDocumentType, normalizeBirthNumber } from '@ros/domain';
import type { FastifyInstance } from 'fastify';
import { DEMO_PERSONS } from '../demo/persons.js';
import { solvedToken } from './botcheck.js';

/**
 * What the browser holds after a search found a register person: the answer's `match` token,
 * which the birth-number retry, validate and submit send back (requests/matchToken.ts). The demo
 * person with this birth number, found as the form finds them: by names and document.
 */
export async function matchFor(app: FastifyInstance, birthNumber: string): Promise<string> {
  const demo = DEMO_PERSONS.find(
    (p) => normalizeBirthNumber(p.person.rc ?? '') === normalizeBirthNumber(birthNumber),
  );
  if (!demo) throw new Error(`no demo person has birth number ${birthNumber}`);
  const r = await app.inject({
    method: 'POST',
    url: '/api/ros/search',
    payload: {
      first_name: demo.person.jmeno,
      last_name: demo.person.prijmeni,
      type: formDocumentType(demo.person.typ_op_pas),
      number: demo.person.op_pas,
    },
    headers: { recaptcha: await solvedToken(app) },
  });
  const match = r.statusCode === 200 ? (r.json() as { match?: unknown }).match : undefined;
  if (typeof match !== 'string') throw new Error(`search answered ${r.statusCode}, no match`);
  return match;
}

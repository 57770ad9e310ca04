import { createHash } from 'node:crypto';
import { PERSON_KEYS, type PersonIdentity, personIdentity } from '@ros/domain';
import { describe, expect, it } from 'vitest';
import { identityKey, resolvePerson } from './person.js';

/**
 * The person keys are stored with the requests (requests.person_key): issue 34 moved their
 * fields and comparison forms onto the catalogue (fields.ts `compareAs`, applicant.ts PERSON_KEYS),
 * and every key must stay byte for byte what it was.
 */

const base: PersonIdentity = personIdentity({
  first_name: ' Žofie ',
  last_name: 'Řeháková',
  birth_date: '1992-11-23 ',
  birth_number: '926123/0006',
  aifo: ' A1 ',
  document_number: 'ab 12',
});

/** The keys as they were written before issue 34 moved their rules (the digests of then). */
const STORED = [
  [base, 'rc:R_kr84axiOSELRLrLOUyNOzuJWN337mU'],
  [{ ...base, birth_number: '' }, 'aifo:FqNuhvb-1dRl_zMlEaDOGoY7VdNkslp8'],
  [{ ...base, birth_number: ' ', aifo: '' }, 'ndd:dPQt6BSyumnAxgHc15NvNnuCZvR_xWSY'],
  [{ ...base, birth_number: '', aifo: '', document_number: '' }, 'none:o4ytXX-k6QBLgoY9yU2wNeOyL_fxzc6X'],
  [{ ...base, birth_number: '', aifo: '', first_name: '' }, 'none:vEM0kByzpiqhZVxL2W8K2yCvjS50OjbI'],
] as const;

const digest = (s: string) => createHash('sha256').update(s).digest('base64url').slice(0, 32);

describe('person keys (issue 34: by PERSON_KEYS and the entries’ compareAs)', () => {
  it.each(STORED)('are the stored keys of before: %j', (id, key) => {
    expect(resolvePerson(id, null).key).toBe(key);
    expect(identityKey(id)).toBe(key.startsWith('none:') ? null : key);
  });

  it('hash the compared values of the first key whose fields are all filled, as the keys always did', () => {
    expect(PERSON_KEYS.map((k) => [k.kind, k.fields])).toEqual([
      ['rc', ['birth_number']],
      ['aifo', ['aifo']],
      ['ndd', ['first_name', 'last_name', 'birth_date', 'document_number']],
    ]);
    expect(identityKey({ ...base, birth_number: ' 926123 / 0006 ' })).toBe(`rc:${digest('9261230006')}`);
    expect(identityKey({ ...base, birth_number: '' })).toBe(`aifo:${digest('A1')}`);
    expect(identityKey({ ...base, birth_number: '', aifo: ' ', last_name: ' ŘEHÁKOVÁ ' })).toBe(
      `ndd:${digest('zofie\u0000rehakova\u00001992-11-23\u0000AB12')}`,
    );
  });

  it('key a request without any complete key by its whole identity, in the identity’s order', () => {
    const id = { ...base, birth_number: '', aifo: '', document_number: '' };
    expect(Object.keys(id)).toEqual([
      'first_name',
      'last_name',
      'birth_date',
      'birth_number',
      'aifo',
      'document_number',
    ]);
    expect(resolvePerson(id, null).key).toBe(`none:${digest(JSON.stringify(id))}`);
  });
});

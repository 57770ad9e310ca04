import { createHash } from 'node:crypto';
import { normalizeDocumentNumber, normalizeName } from '@ros/domain';
import type { Db } from '../db/database.js';
import { isInForce, registerToday } from '../records/records.js';
import { normalizeBirthNumber } from '../register/persons.js';

/**
 * Who a request is for (PRODUCT.md "Validate"): the person is recognised by birth number, or by
 * AIFO, or by name + birth date + document number, tried in that order. A person found in the
 * register is keyed by their register id, so that requests identified in different ways still
 * meet; anyone else by a hash of the strongest identifier given. Keys hold no personal data
 * in the clear.
 */
export interface PersonIdentity {
  first_name: string;
  last_name: string;
  /** ISO 'YYYY-MM-DD' or '' */
  birth_date: string;
  birth_number: string;
  aifo: string;
  document_number: string;
}

export interface ResolvedPerson {
  /** Register person id, when the register knows the person. */
  personId: number | null;
  /** requests.person_key */
  key: string;
}

const digest = (s: string) => createHash('sha256').update(s).digest('base64url').slice(0, 32);

/** The key of a person the register does not know, from the strongest identifier given; null when none. */
export function identityKey(id: PersonIdentity): string | null {
  const rc = normalizeBirthNumber(id.birth_number.trim());
  if (rc !== '') return `rc:${digest(rc)}`;
  const aifo = id.aifo.trim();
  if (aifo !== '') return `aifo:${digest(aifo)}`;
  const first = normalizeName(id.first_name);
  const last = normalizeName(id.last_name);
  const doc = normalizeDocumentNumber(id.document_number);
  const date = id.birth_date.trim();
  if (first && last && doc && date) return `ndd:${digest(`${first}\u0000${last}\u0000${date}\u0000${doc}`)}`;
  return null;
}

/** The register person for an identity: by birth number, else by AIFO, else by name + birth date + document. */
export async function findRegisterPerson(db: Db, id: PersonIdentity): Promise<number | null> {
  const rc = normalizeBirthNumber(id.birth_number.trim());
  if (rc !== '') {
    const row = await db.kysely
      .selectFrom('persons')
      .select('id')
      .where('birth_number_norm', '=', rc)
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
    if (row) return Number(row.id);
  }
  const aifo = id.aifo.trim();
  if (aifo !== '') {
    const row = await db.kysely
      .selectFrom('persons')
      .select('id')
      .where('aifo', '=', aifo)
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
    if (row) return Number(row.id);
  }
  const first = normalizeName(id.first_name);
  const last = normalizeName(id.last_name);
  const doc = normalizeDocumentNumber(id.document_number);
  const date = id.birth_date.trim();
  if (first && last && doc && date) {
    const row = await db.kysely
      .selectFrom('persons as p')
      .select('p.id')
      .where('p.first_name_norm', '=', first)
      .where('p.last_name_norm', '=', last)
      .where('p.birth_date', '=', date)
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('person_documents as d')
            .select('d.person_id')
            .whereRef('d.person_id', '=', 'p.id')
            .where('d.number_norm', '=', doc),
        ),
      )
      .orderBy('p.id')
      .limit(1)
      .executeTakeFirst();
    if (row) return Number(row.id);
  }
  return null;
}

/** The register person (if any) and the person key of a request. */
export async function resolvePerson(db: Db, id: PersonIdentity): Promise<ResolvedPerson> {
  const personId = await findRegisterPerson(db, id);
  if (personId !== null) return { personId, key: `person:${personId}` };
  // Nothing to recognise the person by: a key of its own, so that such requests never meet.
  return { personId: null, key: identityKey(id) ?? `none:${digest(JSON.stringify(id))}` };
}

/** The person's certificate in force today (the one valid longest), if any. */
export async function certificateInForce(
  db: Db,
  personId: number,
  now: Date = new Date(),
): Promise<{ id: number; platnost_do: string } | null> {
  const rows = await db.kysely
    .selectFrom('records')
    .select(['id', 'stav', 'platnost_do', 'revoked_at'])
    .where('person_id', '=', personId)
    .orderBy('platnost_do', 'desc')
    .execute();
  const today = registerToday(now);
  const row = rows.find((r) => isInForce(r, today));
  return row ? { id: Number(row.id), platnost_do: row.platnost_do } : null;
}

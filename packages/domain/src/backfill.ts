// Stored and older request bodies (issue 34): one back-fill from the catalogue's defaults. A
// request stored before a field existed, or sent by a page loaded before it, lacks that field;
// here, and nowhere else, it gets the value such a body means (its entry's `absent`, else its
// default, defaultFormValues()). The server's decoders of stored requests (requests/repository.ts,
// intake/requests.ts, the notices) and its submit (an older page's body) call it; no decoder
// patches a field by hand.

import { type AnySpec, type Catalogue, defaultValueOf, FIELDS, type FormValues } from './fields.js';

/**
 * The values of a stored or older request body, every field the catalogue has: a field the body
 * lacks (missing or undefined) takes the value its entry's `absent` says such a body means, else
 * its default (its entry's, defaultValueOf: a fresh copy). `sent`: a submit body, which is checked by the
 * schema afterwards: only the fields with an `absent` (added since pages were first loaded) are
 * filled, so a hand-made body missing another field is still refused (`required`). What the body
 * holds is kept as it is, unknown keys included (the schema drops them).
 */
export function backfillFormValues(
  body: Readonly<Record<string, unknown>>,
  options: { sent?: boolean } = {},
  catalogue: Catalogue = FIELDS,
): FormValues {
  const out: Record<string, unknown> = { ...body };
  for (const [name, spec] of Object.entries(catalogue)) {
    if (out[name] !== undefined) continue;
    const absent = 'absent' in spec ? spec.absent : undefined;
    if (absent !== undefined) out[name] = absent;
    else if (!options.sent) out[name] = defaultValueOf(spec as AnySpec);
  }
  return out as unknown as FormValues;
}

/** A stored request's values from its JSON payload (backfillFormValues). */
export function storedFormValues(payload: string, catalogue: Catalogue = FIELDS): FormValues {
  return backfillFormValues(JSON.parse(payload) as Record<string, unknown>, {}, catalogue);
}

import { type FormValues, isFieldHidden } from './fields.js';

/**
 * What the applicant must attach to the signed request, said on the PDF and on the success
 * screen alike:
 * - `abroad`: an extract from the criminal record of each country of a stay abroad (a new
 *   request with stays abroad; the duplicate form has no stays);
 * - `identity`: a copy of the identity document, for someone without a Czech birth number
 *   (not in the Czech registers).
 */
export type Attachment = 'abroad' | 'identity';

export function requiredAttachments(
  values: Pick<FormValues, 'abroad_stay' | 'birth_number'>,
  duplicate: boolean,
): Attachment[] {
  const out: Attachment[] = [];
  // Duplicate mode hides the stays abroad (a prefill may still hold some): nothing to attach for them.
  if (!isFieldHidden('abroad_stay', { duplicate }) && values.abroad_stay.length > 0) out.push('abroad');
  if (values.birth_number.trim() === '') out.push('identity');
  return out;
}

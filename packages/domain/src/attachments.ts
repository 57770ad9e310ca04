import {
  ATTACHMENTS,
  type Attachment,
  type Catalogue,
  FIELDS,
  type FieldsWith,
  type FormValues,
  isFieldHidden,
} from './fields.js';

/**
 * What the applicant must attach to the signed request, said on the PDF and on the success
 * screen alike, in this order (ATTACHMENTS, defined beside the catalogue whose entries ask for
 * them: fields.ts `attachment`):
 * - `abroad`: an extract from the criminal record of each country of a stay abroad (a new
 *   request with stays abroad; the duplicate form has no stays);
 * - `identity`: a copy of the identity document, for someone without a Czech birth number
 *   (not in the Czech registers).
 */
export { ATTACHMENTS, type Attachment };

/** The fields whose entry asks for an attachment (`attachment`): the values requiredAttachments reads. */
export type AttachmentField = FieldsWith<'attachment'>;

/**
 * The attachments the values call for, in ATTACHMENTS' order: each entry's `attachment` while its
 * field is shown in this mode (duplicate mode hides the stays abroad, which a prefill may still
 * hold: nothing to attach for them), when the value is empty or filled as it says (a text of
 * spaces only is empty, a list without items too).
 */
export function requiredAttachments(
  values: Pick<FormValues, AttachmentField>,
  duplicate: boolean,
  catalogue: Catalogue = FIELDS,
): Attachment[] {
  const asked = new Set<Attachment>();
  for (const [name, spec] of Object.entries(catalogue)) {
    if (spec.attachment === undefined || isFieldHidden(name, { duplicate }, catalogue)) continue;
    const value: unknown = (values as Partial<Record<string, unknown>>)[name];
    const filled = Array.isArray(value) ? value.length > 0 : typeof value === 'string' && value.trim() !== '';
    if (filled === (spec.attachment.when === 'filled')) asked.add(spec.attachment.need);
  }
  return ATTACHMENTS.filter((a) => asked.has(a));
}

// The legal texts the applicant agrees to (issue 22): one source for the confirmation dialog
// (packages/web) and the PDF (packages/server). See docs/decisions/0006-legal-text-versions.md.

import { applicantEmail, type ContactDetails } from '../applicant.js';
import type { Attachment } from '../attachments.js';
import { formatTelephone } from '../contact.js';
import { fill } from '../fill.js';
import type { LegalLanguage, LegalTextVersion, LegalVariant } from './types.js';
import { LEGAL_TEXTS_V1 } from './v1.js';
import { LEGAL_TEXTS_V2 } from './v2.js';

export type {
  LegalChannel,
  LegalLanguage,
  LegalTextsOfLanguage,
  LegalTextVersion,
  LegalVariant,
} from './types.js';

/** Every version ever shipped, oldest first; the last is the one the dialog shows now. */
export const LEGAL_TEXT_VERSIONS: readonly LegalTextVersion[] = [LEGAL_TEXTS_V1, LEGAL_TEXTS_V2];

/** The three declarations the request cannot be sent without (spec: checkboxes 1-3). */
export const DECLARATION_KEYS = ['signature', 'affidavit', 'purpose'] as const;
export type DeclarationKey = (typeof DECLARATION_KEYS)[number];

/** The five boxes of the dialog, in its order. */
export const STATEMENT_KEYS = [...DECLARATION_KEYS, 'notify_email', 'notify_phone'] as const;
export type StatementKey = (typeof STATEMENT_KEYS)[number];

/** Exactly which boxes were ticked. */
export type Ticked = Record<StatementKey, boolean>;

/** One box of the dialog (and one line of the PDF's declarations): its key and its sentence. */
export interface Statement {
  key: StatementKey;
  text: string;
  required: boolean;
}

/** The version the dialog shows now. */
export function currentLegalVersion(versions: readonly LegalTextVersion[] = LEGAL_TEXT_VERSIONS): string {
  const last = versions[versions.length - 1];
  if (!last) throw new Error('no legal text version');
  return last.version;
}

export function isLegalVersion(
  version: string,
  versions: readonly LegalTextVersion[] = LEGAL_TEXT_VERSIONS,
): boolean {
  return versions.some((v) => v.version === version);
}

function textsOf(version: string, lang: LegalLanguage, versions: readonly LegalTextVersion[]) {
  const found = versions.find((v) => v.version === version);
  if (!found) throw new Error(`unknown legal text version ${version}`);
  return found.texts[lang];
}

/**
 * The five statements of a version, in one language, for one variant, with the request's
 * e-mail address and telephone filled in: what the dialog shows beside its boxes and the PDF
 * prints beside the ticks, word for word. Throws for an unknown version.
 */
export function legalStatements(
  version: string,
  lang: LegalLanguage,
  variant: LegalVariant,
  contact: ContactDetails,
  versions: readonly LegalTextVersion[] = LEGAL_TEXT_VERSIONS,
): Statement[] {
  const t = textsOf(version, lang, versions);
  const phone = formatTelephone(contact.telephone, contact.dial_code ?? '');
  return [
    { key: 'signature', text: t.signature[variant.channel], required: true },
    { key: 'affidavit', text: variant.duplicate ? t.affidavit.duplicate : t.affidavit.new, required: true },
    { key: 'purpose', text: t.purpose, required: true },
    { key: 'notify_email', text: fill(t.notify_email, { email: applicantEmail(contact) }), required: false },
    {
      key: 'notify_phone',
      text: phone === '' ? t.notify_phone_generic : fill(t.notify_phone, { phone }),
      required: false,
    },
  ];
}

/** The attachments notes of a version, in one language, for the kinds a request needs. */
export function attachmentNotes(
  version: string,
  lang: LegalLanguage,
  kinds: readonly Attachment[],
  versions: readonly LegalTextVersion[] = LEGAL_TEXT_VERSIONS,
): string[] {
  const t = textsOf(version, lang, versions);
  return kinds.map((k) => t.attachments[k]);
}

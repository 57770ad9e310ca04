import type { Attachment } from '../attachments.js';

/** The languages of the legal texts (the request's language). */
export type LegalLanguage = 'cs' | 'en';

/** How the request reaches the authority: a signed paper (the PDF) or directly after NIA sign-in. */
export type LegalChannel = 'paper' | 'nia';

/** Which texts a request is given: by its channel and whether it asks for a duplicate. */
export interface LegalVariant {
  channel: LegalChannel;
  duplicate: boolean;
}

/** One language of one version. `{email}` and `{phone}` are filled from the request's values. */
export interface LegalTextsOfLanguage {
  /** Declaration 1: the applicant's identity and how the request is signed. */
  signature: Record<LegalChannel, string>;
  /** Declaration 2: the affidavit that the data are true. */
  affidavit: { new: string; duplicate: string };
  /** Declaration 3: the purpose of processing the personal data. */
  purpose: string;
  /** Consent 4, with `{email}`. */
  notify_email: string;
  /** Consent 5, with `{phone}` (the telephone as written on the PDF: '+420 603 123 456'). */
  notify_phone: string;
  /** Consent 5 while no telephone is given (the box cannot be ticked then). */
  notify_phone_generic: string;
  /** What to attach, by requiredAttachments' kinds. */
  attachments: Record<Attachment, string>;
}

/** A version of the texts: never changed once shipped; a change is a new version. */
export interface LegalTextVersion {
  /** Stored with each request ('1', '2', ...). */
  version: string;
  /** The day it was first shown (YYYY-MM-DD), for people reading the list. */
  since: string;
  texts: Record<LegalLanguage, LegalTextsOfLanguage>;
}

import { defaultFormValues } from '@ros/domain';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { CodeNames } from '../pdf/model.js';
import type { StoredRequest } from '../requests/repository.js';
import { AGREED } from './applicant.js';

/** Collapses whitespace: a line break is a space to a reader. */
export const normalise = (s: string) => s.replace(/\s+/g, ' ').trim();

/** The PDF's text layer (read back with pdf.js) with whitespace collapsed. */
export async function pdfText(bytes: Buffer): Promise<string> {
  const doc = await getDocument({ data: new Uint8Array(bytes), useSystemFonts: false }).promise;
  const parts: string[] = [];
  for (let p = 1; p <= doc.numPages; p++) {
    const content = await (await doc.getPage(p)).getTextContent({ disableNormalization: true });
    parts.push(content.items.map((i) => ('str' in i ? i.str : '')).join(' '));
  }
  await doc.destroy();
  return normalise(parts.join(' '));
}

/** Code lists that print each code as it is (the PDF tests that read words, not lists). */
export const CODES_AS_THEY_ARE: CodeNames = {
  country: (c) => c,
  listItem: (_l, c) => c,
  municipality: (c) => c,
  district: (c) => c,
};

/** A stored request of Cecil Rozzi, agreed, in a language, on paper or after NIA sign-in. */
export function storedRequestOf(language: 'cs' | 'en', viaNia: boolean): StoredRequest {
  return {
    id: 'z'.repeat(24),
    reference: 'ROS-2026-000042',
    language,
    duplicate: false,
    viaNia,
    values: { ...defaultFormValues(), first_name: 'Cecil', last_name: 'Rozzi', home_state: 'CZ' },
    personKey: null,
    idempotencyKey: null,
    bodyHash: 'h',
    legal: AGREED,
    createdAt: '2026-11-26T10:00:00.000Z',
  };
}

/**
 * SMS in the GSM 03.38 7-bit alphabet (issue 36): a text with one character outside it (a Czech
 * letter with a háček, an en dash) goes as UCS-2, 70 characters a segment instead of 160, so a
 * status SMS cost two segments. The SMS texts are written in GSM-7 (`toGsm7`), and a test checks
 * every text of both languages fits one segment (`notifications/gsm7.test.ts`).
 */

/** The basic character set (one septet each). */
const BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
/** The extension table (two septets each: escape + character). */
const EXTENSION = '^{}\\[~]|€\f';

/** Septets of the text in GSM-7, or null when a character is outside the alphabet. */
export function gsm7Septets(text: string): number | null {
  let n = 0;
  for (const c of text) {
    if (BASIC.includes(c)) n += 1;
    else if (EXTENSION.includes(c)) n += 2;
    else return null;
  }
  return n;
}

/** One SMS segment holds 160 septets (a longer message goes in parts of 153). */
export const GSM7_SEGMENT = 160;

/** How many segments the text takes in GSM-7; null when it is not GSM-7. */
export function gsm7Segments(text: string): number | null {
  const n = gsm7Septets(text);
  if (n === null) return null;
  return n <= GSM7_SEGMENT ? 1 : Math.ceil(n / 153);
}

/**
 * The text in GSM-7: letters without their diacritics (ž → z, Ř → R; é, É, ä, ö, ü kept: they
 * are in the alphabet), dashes as '-', typographic quotes as straight ones; anything else left
 * outside is replaced by '?'.
 */
export function toGsm7(text: string): string {
  let out = '';
  for (const c of text) {
    if (BASIC.includes(c) || EXTENSION.includes(c)) {
      out += c;
      continue;
    }
    const plain = c
      .normalize('NFD')
      .replace(/\p{M}/gu, '')
      .replace(/[\u2010-\u2015\u2212]/g, '-')
      .replace(/[\u2018\u2019\u201a]/g, "'")
      .replace(/[\u201c\u201d\u201e]/g, '"')
      .replace(/\u00a0/g, ' ');
    out += [...plain].every((p) => BASIC.includes(p)) ? plain : '?';
  }
  return out;
}

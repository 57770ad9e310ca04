// Bounds of the request bodies (issue 11, "one request stops everything"): how large, how
// deep and how many values a valid body of each call can be, worked out from the rules'
// own limits, and a scan of JSON text that checks them before anything parses the body.

import { fieldSpec } from './fields.js';
import {
  DEFAULT_MAX_LENGTH,
  MAX_ABROAD_STAYS,
  MAX_DUPLICATE_TYPES,
  MAX_OTHER_CITIZENSHIPS,
  MAX_PAST_ACTIVITIES,
} from './limits.js';

/** The shape limits of one body: JSON text bytes, nesting of objects/arrays, values in all. */
export interface BodyLimits {
  /** Largest body in bytes (UTF-8). */
  maxBytes: number;
  /** Deepest nesting of objects and arrays (a flat object is 1). */
  maxDepth: number;
  /** Most values (members of objects plus items of arrays, counted over the whole body). */
  maxValues: number;
}

/** Most issues a check reports: enough for every field of the form, never hundreds of thousands. */
export const MAX_ISSUES = 100;

/**
 * Bytes one character of a valid text can take in the body: the browser sends JSON.stringify
 * output in UTF-8; a UTF-16 unit is at most 3 bytes there (a character outside the BMP is 4 bytes
 * for 2 units), `"` and `\` 2 bytes; control characters are refused by the text policy anyway.
 */
const BYTES_PER_CHAR = 3;
/** Quotes, colon, comma and a little white space around each value. */
const PER_VALUE_BYTES = 8;
/** Headroom over the largest valid body (a client's white space, a field added later). */
const MARGIN = 1.25;
/** Members a body may have beyond the known ones (old pages, harmless extras that are dropped). */
const EXTRA_MEMBERS = 16;

interface Member {
  name: string;
  max: number;
}

function bytesOf(members: readonly Member[]): number {
  return members.reduce((n, m) => n + m.name.length + m.max * BYTES_PER_CHAR + PER_VALUE_BYTES, 2);
}

function limitsOf(bytes: number, depth: number, values: number): BodyLimits {
  return {
    maxBytes: Math.ceil((bytes * MARGIN) / 1024) * 1024,
    maxDepth: depth,
    maxValues: values + EXTRA_MEMBERS,
  };
}

/**
 * Longest valid value of a field by its kind in the catalogue (fields.ts), where the rule is
 * tighter than the maximum length: a code (a country, a code list's item) at most CODE_MAX, a
 * choice its longest option, a date 10, a month/year 7. A longer value is refused by its rule
 * anyway, so a body carrying it need not fit.
 */
const CODE_MAX = 16;
function maxOf(path: string): number {
  const spec = fieldSpec(path);
  switch (spec?.kind) {
    case 'country':
    case 'list':
      return CODE_MAX;
    case 'choice':
      return Math.max(...spec.options.map((o) => o.length));
    case 'date':
      return 10;
    case 'monthYear':
      return 7;
    case 'text':
    case 'email':
    case 'telephone':
    case 'birthNumber':
    case 'dataMailbox':
    case 'municipality':
    case 'district':
      return spec.maxLength;
    default:
      return DEFAULT_MAX_LENGTH;
  }
}

/** The text fields of the form body (names only: which fields there are lives in form.ts). */
export function formBodyLimits(textFields: readonly string[]): BodyLimits {
  const text = textFields.map((name) => ({ name, max: maxOf(name) }));
  const envelope: Member[] = [
    { name: 'language', max: 2 },
    { name: 'duplicate', max: 5 },
    { name: 'send_notifications_email', max: 5 },
    { name: 'send_notifications_phone', max: 5 },
    { name: 'match', max: MATCH_TOKEN_MAX_LENGTH },
    { name: 'legal_version', max: LEGAL_VERSION_MAX_LENGTH },
    { name: 'legal_channel', max: 5 },
    { name: 'declaration_signature', max: 5 },
    { name: 'declaration_affidavit', max: 5 },
    { name: 'declaration_purpose', max: 5 },
  ];
  const columns = (rows: string, names: readonly string[]) =>
    names.map((name) => ({ name, max: maxOf(`${rows}.${name}`) }));
  const row = bytesOf(columns('past_activities', ['from', 'to', 'type', 'field1', 'field2']));
  const stay = bytesOf(columns('abroad_stay', ['state', 'reason']));
  const listItem = CODE_MAX * BYTES_PER_CHAR + PER_VALUE_BYTES;
  const bytes =
    bytesOf([...text, ...envelope]) +
    MAX_OTHER_CITIZENSHIPS * listItem +
    MAX_DUPLICATE_TYPES * listItem +
    MAX_PAST_ACTIVITIES * (row + PER_VALUE_BYTES) +
    MAX_ABROAD_STAYS * (stay + PER_VALUE_BYTES) +
    4 * 40;
  const values =
    text.length +
    envelope.length +
    4 +
    MAX_OTHER_CITIZENSHIPS +
    MAX_DUPLICATE_TYPES +
    MAX_PAST_ACTIVITIES * 6 +
    MAX_ABROAD_STAYS * 3;
  // body -> past_activities -> row
  return limitsOf(bytes, 3, values);
}

/** Longest legal-text version id the submit body may carry (legalTexts/: '1', '2', ...). */
export const LEGAL_VERSION_MAX_LENGTH = 16;

/** Longest match token the search answers (see register.md); longer is refused unread. */
export const MATCH_TOKEN_MAX_LENGTH = 64;

/** Limits of a flat body of the given members (the search and validate calls). */
export function flatBodyLimits(members: ReadonlyArray<readonly [name: string, max: number]>): BodyLimits {
  return limitsOf(bytesOf(members.map(([name, max]) => ({ name, max }))), 1, members.length);
}

/** Why a JSON text is refused before it is parsed. */
export type BodyShapeError = 'bytes' | 'depth' | 'values';

/**
 * Checks a JSON text against limits in one pass over its characters, without parsing it: its
 * length, how deep objects and arrays nest and how many values it holds (every `,` and `:`
 * outside strings counts). Stops at the first limit passed. It does not check that the text is
 * JSON (JSON.parse does that next, on a text now known to be small and shallow).
 */
export function scanJsonShape(text: string, limits: BodyLimits): BodyShapeError | null {
  // UTF-16 length is a lower bound of the byte length: a cheap first cut.
  if (text.length > limits.maxBytes) return 'bytes';
  let depth = 0;
  let values = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
      continue;
    }
    switch (c) {
      case 0x22: // "
        inString = true;
        break;
      case 0x5b: // [
      case 0x7b: // {
        if (++depth > limits.maxDepth) return 'depth';
        break;
      case 0x5d: // ]
      case 0x7d: // }
        depth--;
        break;
      case 0x2c: // ,
      case 0x3a: // :
        if (++values > limits.maxValues * 2) return 'values';
        break;
    }
  }
  return null;
}

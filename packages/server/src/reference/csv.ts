/**
 * A small, strict CSV reader (RFC 4180) for ČSÚ's codebook exports: comma-separated,
 * fields optionally in double quotes, a doubled quote inside quotes stands for one quote,
 * quoted fields may span lines, CRLF or LF line ends, an optional UTF-8 byte-order mark.
 * Each record carries the line it starts on, so that a bad file can be reported by line.
 */

export interface CsvRecord {
  /** 1-based physical line on which the record starts. */
  line: number;
  fields: string[];
}

export class CsvSyntaxError extends Error {
  constructor(
    public readonly line: number,
    message: string,
  ) {
    super(`line ${line}: ${message}`);
  }
}

/** Parses the whole text. Blank lines are skipped; a malformed quote throws CsvSyntaxError. */
export function parseCsv(input: string, separator = ','): CsvRecord[] {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  const records: CsvRecord[] = [];
  let line = 1;
  let i = 0;
  const n = text.length;

  while (i < n) {
    const startLine = line;
    const fields: string[] = [];
    // A record: fields until an unquoted line end or the end of the text.
    for (;;) {
      let value = '';
      if (text[i] === '"') {
        const quoteLine = line;
        i++;
        for (;;) {
          const q = text.indexOf('"', i);
          if (q === -1) throw new CsvSyntaxError(quoteLine, 'a quoted field is not closed');
          const chunk = text.slice(i, q);
          for (let nl = chunk.indexOf('\n'); nl !== -1; nl = chunk.indexOf('\n', nl + 1)) line++;
          value += chunk;
          if (text[q + 1] === '"') {
            value += '"';
            i = q + 2;
            continue;
          }
          i = q + 1;
          break;
        }
        const next = text[i];
        if (i < n && next !== separator && next !== '\n' && next !== '\r') {
          throw new CsvSyntaxError(line, 'unexpected text after a closing quote');
        }
      } else {
        const start = i;
        while (i < n && text[i] !== separator && text[i] !== '\n' && text[i] !== '\r') {
          if (text[i] === '"') throw new CsvSyntaxError(line, 'a quote inside an unquoted field');
          i++;
        }
        value = text.slice(start, i);
      }
      fields.push(value);
      if (i < n && text[i] === separator) {
        i++;
        continue;
      }
      break;
    }
    // The line end (CRLF, LF or a lone CR).
    if (text[i] === '\r') i++;
    if (text[i] === '\n') i++;
    line++;
    if (!(fields.length === 1 && fields[0] === '')) records.push({ line: startLine, fields });
  }
  return records;
}

/**
 * Bytes of a codebook file as text: UTF-8 (what ČSÚ exports today) when the bytes are valid
 * UTF-8, otherwise windows-1250, the encoding of older ČSÚ exports.
 */
export function decodeCodebook(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1250').decode(bytes);
  }
}

import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

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

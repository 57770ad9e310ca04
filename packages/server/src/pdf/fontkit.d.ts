// fontkit (a dependency of pdfkit) ships no types; the renderer only creates a font from bytes
// and hands it to pdfkit, which accepts a fontkit font wherever it takes a font source.
declare module 'fontkit' {
  export interface Font {
    layout(text: string, features?: unknown): unknown;
    postscriptName: string;
    getGlyph(id: number): object;
    /** Every code point the font has a glyph for. */
    characterSet: number[];
    glyphForCodePoint(codePoint: number): object;
  }
  export function create(buffer: Uint8Array, postscriptName?: string): Font;
}

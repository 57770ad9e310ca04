import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as fontkit from 'fontkit';

/**
 * The PDF's fonts: DejaVu Sans regular and bold, parsed once per thread and patched so that a
 * PDF takes a few milliseconds (shaping results kept across documents, glyph outlines decoded
 * once) and its text layer holds plain letters (no ligatures). The layout is pdf/render.ts.
 */

const require = createRequire(import.meta.url);

export interface Fonts {
  regular: fontkit.Font;
  bold: fontkit.Font;
}
let fonts: Fonts | undefined;

interface Position {
  xAdvance: number;
  yAdvance: number;
  xOffset: number;
  yOffset: number;
}
interface Run {
  glyphs: unknown[];
  positions: Position[];
}

/** Shaped words kept across documents; cleared when it grows past this many. */
const LAYOUT_CACHE_MAX = 20_000;

/**
 * The OpenType features to shape with, minus the ligatures: a ligature glyph ("ﬁ") puts one
 * code point for two letters in the text layer, and readers then cannot find or copy "fi".
 * fontkit takes `false` in the object form as "remove this default feature".
 */
const NO_LIGATURES = { liga: false, clig: false, dlig: false, hlig: false };
function withoutLigatures(features: unknown): Record<string, boolean> {
  const given: Record<string, boolean> = Array.isArray(features)
    ? Object.fromEntries(features.map((f) => [String(f), true]))
    : features && typeof features === 'object'
      ? { ...(features as Record<string, boolean>) }
      : {};
  return { ...given, ...NO_LIGATURES };
}

/**
 * A fontkit font whose shaping results are kept across documents. pdfkit caches them per
 * document only, and shaping (GSUB/GPOS lookups) is most of the cost of a PDF made of many
 * short texts. pdfkit scales the positions it gets in place, so each call gets fresh copies.
 */
function withSharedLayoutCache(font: fontkit.Font): fontkit.Font {
  const cache = new Map<string, Run>();
  const wrapper = Object.create(font) as fontkit.Font;
  wrapper.layout = (text: string, features?: unknown) => {
    const key = features === undefined ? text : `${JSON.stringify(features)}\u0000${text}`;
    let run = cache.get(key);
    if (!run) {
      const r = font.layout(text, withoutLigatures(features)) as Run;
      run = {
        glyphs: r.glyphs,
        positions: r.positions.map((p) => ({
          xAdvance: p.xAdvance,
          yAdvance: p.yAdvance,
          xOffset: p.xOffset,
          yOffset: p.yOffset,
        })),
      };
      if (cache.size >= LAYOUT_CACHE_MAX) cache.clear();
      cache.set(key, run);
    }
    const positions = run.positions.map((p) => ({ ...p }));
    return {
      glyphs: run.glyphs,
      positions,
      get advanceWidth() {
        let w = 0;
        for (const p of positions) w += p.xAdvance;
        return w;
      },
    };
  };
  return wrapper;
}

/**
 * pdfkit writes a font subset for every document, and fontkit's subsetter decodes each glyph it
 * copies, only to see whether it is a composite. Glyph objects are cached by the font, so their
 * decoded outlines can be too (nothing writes to them). Skipped if fontkit's internals change.
 */
function memoizeGlyphDecoding(font: fontkit.Font): void {
  const proto = Object.getPrototypeOf(font.getGlyph(0)) as { _decode?: () => unknown; __rosMemo?: true };
  if (typeof proto._decode !== 'function' || proto.__rosMemo) return;
  const decode = proto._decode;
  const memo = new WeakMap<object, unknown>();
  proto._decode = function (this: object) {
    if (!memo.has(this)) memo.set(this, decode.call(this));
    return memo.get(this);
  };
  proto.__rosMemo = true;
}

/**
 * DejaVu Sans (Bitstream Vera licence: free to embed and redistribute), parsed once per thread.
 * pdfkit takes the parsed fontkit font as it is, so its tables and glyphs are decoded once and
 * every document only writes its own subset: that is what keeps a PDF to a few milliseconds.
 */
export function loadFonts(): Fonts {
  if (!fonts) {
    const open = (file: string) => {
      const font = fontkit.create(readFileSync(require.resolve(`dejavu-fonts-ttf/ttf/${file}`)));
      memoizeGlyphDecoding(font);
      // fontkit keeps one glyph object per glyph and its code points are those of its first use:
      // a plain c first met as the base of č would carry no code point of its own, and every later
      // PDF would lose c from its text (copy, search, screen readers). Creating each glyph from its
      // own code point first keeps the mapping right (about 50 ms per font, once per thread).
      for (const cp of font.characterSet) font.glyphForCodePoint(cp);
      return withSharedLayoutCache(font);
    };
    fonts = { regular: open('DejaVuSans.ttf'), bold: open('DejaVuSans-Bold.ttf') };
  }
  return fonts;
}

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as fontkit from 'fontkit';
import PDFDocument from 'pdfkit';
import QRCode from 'qrcode';
import type { PdfModel, PdfRow } from './model.js';

/**
 * Lays out a request (PdfModel) as an A4 PDF with pdfkit: DejaVu Sans embedded as a subset
 * (every Czech letter), tagged for assistive technology (document language, title shown
 * instead of the file name, a structure tree of headings, label/value tables and the
 * declarations as a list; rules, lines, page numbers and the QR code are artifacts). Every page
 * carries the reference number as a QR code, so that a scan of the signed paper finds the
 * electronic request (docs/intake.md). Ligatures are off: the text layer holds plain letters
 * ("fi", not "ﬁ"), so search and copy work. Pure CPU work: it runs in a worker thread (pool.ts).
 */

const require = createRequire(import.meta.url);

interface Fonts {
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

const PAGE = { width: 595.28, height: 841.89 };
// The top margin holds the QR code (42 pt, from 18 pt below the edge: inside what printers print).
const MARGIN = { top: 72, bottom: 64, left: 56, right: 56 };
const QR = { size: 42, top: 18 };
const CONTENT_WIDTH = PAGE.width - MARGIN.left - MARGIN.right;
const LABEL_WIDTH = 170;
const GUTTER = 12;
const VALUE_X = MARGIN.left + LABEL_WIDTH + GUTTER;
const VALUE_WIDTH = CONTENT_WIDTH - LABEL_WIDTH - GUTTER;
const BOTTOM = PAGE.height - MARGIN.bottom;
const INK = '#000000';
const MUTED = '#3d3d3d';
const RULE = '#8a8a8a';

type Doc = PDFKit.PDFDocument;
type Struct = PDFKit.PDFStructureElement;

/**
 * A QR code's modules as a square of `size` points at (x, y): each run of dark modules in a row
 * is one rectangle, all filled at once. The caller leaves the quiet zone.
 */
function drawQr(doc: Doc, modules: QRCode.BitMatrix, x: number, y: number, size: number): void {
  const n = modules.size;
  const m = size / n;
  for (let r = 0; r < n; r++) {
    let c = 0;
    while (c < n) {
      if (!modules.get(r, c)) {
        c++;
        continue;
      }
      const start = c;
      while (c < n && modules.get(r, c)) c++;
      // A hair wider and taller, so that neighbouring rectangles leave no seams when rasterised.
      doc.rect(x + start * m, y + r * m, (c - start) * m + 0.05, m + 0.05);
    }
  }
  doc.fillColor(INK).fill();
}

export function renderPdf(model: PdfModel, now: Date = new Date()): Promise<Buffer> {
  const f = loadFonts();
  const doc: Doc = new PDFDocument({
    size: 'A4',
    margins: MARGIN,
    bufferPages: true,
    tagged: true,
    lang: model.langTag,
    displayTitle: true,
    pdfVersion: '1.7',
    // No standard (non-embedded) font: ours is registered and chosen right below. (An object
    // here would make pdfkit re-open the font on every font switch.)
    font: null as unknown as string,
    info: {
      Title: `${model.title} ${model.reference}`,
      Subject: model.subject,
      Author: 'ROS',
      Creator: 'ROS portal',
      CreationDate: now,
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.registerFont('Regular', f.regular as unknown as string);
  doc.registerFont('Bold', f.bold as unknown as string);
  doc.font('Regular');

  const root = doc.struct('Document');
  doc.addStructure(root);
  let y = MARGIN.top;

  const ensureSpace = (h: number) => {
    if (y + h > BOTTOM) {
      doc.addPage();
      y = MARGIN.top;
    }
  };
  const artifact = (draw: () => void) => {
    doc.markContent('Artifact', { type: 'Layout' });
    draw();
    doc.endMarkedContent();
  };
  const rule = (gap = 6) => {
    artifact(() => {
      doc
        .moveTo(MARGIN.left, y)
        .lineTo(PAGE.width - MARGIN.right, y)
        .lineWidth(0.5)
        .strokeColor(RULE)
        .stroke();
    });
    y += gap;
  };
  /**
   * Height of a text in a column, and whether it is one line. A text narrower than the column
   * is one line: measuring its width is much cheaper than running the line wrapper, and most
   * values are short.
   */
  const measure = (text: string, width: number): { h: number; oneLine: boolean } => {
    if (!text.includes('\n') && doc.widthOfString(text) <= width)
      return { h: doc.currentLineHeight(true), oneLine: true };
    return { h: doc.heightOfString(text, { width }), oneLine: false };
  };
  /** Writes a text at (x, top); a one-line text skips the line wrapper. */
  const put = (text: string, x: number, top: number, width: number, oneLine: boolean) => {
    if (oneLine) doc.text(text, x, top, { lineBreak: false });
    else doc.text(text, x, top, { width });
  };
  /** A block of text as a structure element of `type` under `parent`. */
  const block = (
    parent: Struct,
    type: string,
    text: string,
    font: string,
    size: number,
    color = INK,
    gap = 4,
  ) => {
    doc.font(font).fontSize(size);
    const m = measure(text, CONTENT_WIDTH);
    ensureSpace(Math.min(m.h, BOTTOM - MARGIN.top));
    const top = y;
    parent.add(
      doc.struct(type, {}, () => {
        doc.fillColor(color);
        put(text, MARGIN.left, top, CONTENT_WIDTH, m.oneLine);
      }),
    );
    y = m.oneLine ? top + m.h + gap : doc.y + gap;
  };
  /** Label/value rows as a table of row headers and cells. */
  const table = (parent: Struct, rows: PdfRow[]) => {
    if (rows.length === 0) return;
    const t = doc.struct('Table');
    parent.add(t);
    for (const r of rows) {
      doc.font('Regular').fontSize(9);
      const lm = measure(r.label, LABEL_WIDTH);
      doc.fontSize(10);
      const vm = measure(r.value, VALUE_WIDTH);
      const h = Math.max(lm.h, vm.h);
      // A row stays on one page unless it is longer than a page (a long reason for a stay).
      const fits = h <= BOTTOM - MARGIN.top;
      ensureSpace(fits ? h : BOTTOM - MARGIN.top);
      const top = y;
      const tr = doc.struct('TR');
      t.add(tr);
      tr.add(
        doc.struct('TH', { scope: 'Row' } as { title?: string }, () => {
          doc.fontSize(9).fillColor(MUTED);
          put(r.label, MARGIN.left, top + 1, LABEL_WIDTH, lm.oneLine);
        }),
      );
      tr.add(
        doc.struct('TD', {}, () => {
          doc.fontSize(10).fillColor(INK);
          put(r.value, VALUE_X, top, VALUE_WIDTH, vm.oneLine);
        }),
      );
      // A value longer than a page runs on over the page break: continue below where it ended.
      y = fits ? top + h + 5 : doc.y + 5;
    }
    t.end();
  };

  // Title, reference, the short instruction.
  block(root, 'H1', model.title, 'Bold', 16, INK, 6);
  table(root, model.header);
  block(root, 'P', model.intro, 'Regular', 9, MUTED, 8);
  rule(10);

  for (const s of model.sections) {
    const sect = doc.struct('Sect');
    root.add(sect);
    ensureSpace(40);
    block(sect, 'H2', s.heading, 'Bold', 12, INK, 5);
    table(sect, s.rows);
    for (const g of s.groups) {
      ensureSpace(34);
      block(sect, 'H3', g.heading, 'Bold', 10, INK, 3);
      table(sect, g.rows);
    }
    if (s.note) block(sect, 'P', s.note, 'Regular', 10, MUTED, 4);
    sect.end();
    y += 6;
  }

  /**
   * Heights of the blocks at the end, as drawn below: the signature block is kept on one page
   * with the section before it (the attachments, else the last declaration), never alone.
   */
  const PAGE_SPACE = BOTTOM - MARGIN.top;
  const signatureHeight = (): number => {
    doc.font('Bold').fontSize(12);
    const head = measure(model.signature.heading, CONTENT_WIDTH).h;
    doc.font('Regular').fontSize(model.signature.lines ? 9 : 10);
    const note = measure(model.signature.note, CONTENT_WIDTH).h;
    return model.signature.lines ? 8 + head + 22 + 12 + 30 + note + 4 : 8 + head + 6 + note + 4;
  };
  const attachmentsHeight = (): number => {
    if (!model.attachments) return 0;
    doc.font('Bold').fontSize(12);
    let h = 4 + measure(model.attachments.heading, CONTENT_WIDTH).h + 5;
    doc.font('Regular').fontSize(10);
    for (const a of model.attachments.items) h += measure(a, CONTENT_WIDTH).h + 4;
    return h;
  };
  // At least 110 pt: the space the signature block has always asked for.
  const signatureH = Math.max(110, signatureHeight());

  // The declarations as ticked in the confirmation dialog.
  const decl = doc.struct('Sect');
  root.add(decl);
  ensureSpace(60);
  rule(10);
  block(decl, 'H2', model.declarations.heading, 'Bold', 12, INK, 5);
  const list = doc.struct('L');
  decl.add(list);
  model.declarations.items.forEach((item, i) => {
    doc.font('Regular').fontSize(10);
    const h = doc.heightOfString(item.text, { width: CONTENT_WIDTH - 22 });
    const last = i === model.declarations.items.length - 1 && !model.attachments;
    const keep = last ? h + 5 + signatureH : h;
    ensureSpace(keep <= PAGE_SPACE ? keep : h);
    const top = y;
    const li = doc.struct('LI');
    list.add(li);
    li.add(
      doc.struct('Lbl', { actual: item.state }, () => {
        doc
          .font('Regular')
          .fontSize(11)
          .fillColor(INK)
          .text(item.checked ? '☒' : '☐', MARGIN.left, top - 1);
      }),
    );
    li.add(
      doc.struct('LBody', {}, () => {
        doc
          .font('Regular')
          .fontSize(10)
          .fillColor(INK)
          .text(item.text, MARGIN.left + 22, top, {
            width: CONTENT_WIDTH - 22,
          });
      }),
    );
    y = doc.y + 5;
  });
  list.end();
  decl.end();

  if (model.attachments) {
    const att = doc.struct('Sect');
    root.add(att);
    const keep = attachmentsHeight() + signatureH;
    ensureSpace(keep <= PAGE_SPACE ? Math.max(50, keep) : 50);
    y += 4;
    block(att, 'H2', model.attachments.heading, 'Bold', 12, INK, 5);
    for (const a of model.attachments.items) block(att, 'P', a, 'Regular', 10, INK, 4);
    att.end();
  }

  // Place, date and signature: labels as text, the lines to write on as artifacts.
  const sig = doc.struct('Sect');
  root.add(sig);
  ensureSpace(signatureH);
  y += 8;
  if (model.signature.lines) {
    block(sig, 'H2', model.signature.heading, 'Bold', 12, INK, 22);
    const lineY = y + 12;
    const field = (label: string, x: number, width: number) => {
      doc.font('Regular').fontSize(10);
      const lw = doc.widthOfString(label) + 6;
      sig.add(
        doc.struct('P', {}, () => {
          doc.fillColor(INK).text(label, x, lineY - 10, { lineBreak: false });
        }),
      );
      artifact(() => {
        doc
          .moveTo(x + lw, lineY + 2)
          .lineTo(x + width, lineY + 2)
          .lineWidth(0.7)
          .strokeColor(INK)
          .stroke();
      });
    };
    field(model.signature.place, MARGIN.left, 190);
    field(model.signature.date, MARGIN.left + 205, 140);
    artifact(() => {
      doc
        .moveTo(MARGIN.left + 360, lineY + 2)
        .lineTo(PAGE.width - MARGIN.right, lineY + 2)
        .lineWidth(0.7)
        .strokeColor(INK)
        .stroke();
    });
    sig.add(
      doc.struct('P', {}, () => {
        doc
          .font('Regular')
          .fontSize(9)
          .fillColor(MUTED)
          .text(model.signature.line, MARGIN.left + 360, lineY + 6, {
            width: PAGE.width - MARGIN.right - MARGIN.left - 360,
          });
      }),
    );
    y = lineY + 30;
    block(sig, 'P', model.signature.note, 'Regular', 9, MUTED, 4);
  } else {
    // After NIA sign-in nothing is signed: the note says so instead of the lines.
    block(sig, 'H2', model.signature.heading, 'Bold', 12, INK, 6);
    block(sig, 'P', model.signature.note, 'Regular', 10, INK, 4);
  }
  sig.end();

  // Page numbers and the reference as a QR code (error correction M: a smudge or a staple
  // hole still scans), as pagination artifacts, once the number of pages is known.
  const qr = QRCode.create(model.reference, { errorCorrectionLevel: 'M' }).modules;
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const text = model.pageTemplate.replace('{page}', String(i + 1)).replace('{pages}', String(range.count));
    const keep = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc.markContent('Artifact', { type: 'Pagination' });
    doc
      .font('Regular')
      .fontSize(8)
      .fillColor(MUTED)
      .text(text, MARGIN.left, PAGE.height - MARGIN.bottom + 24, {
        width: CONTENT_WIDTH,
        align: 'right',
        lineBreak: false,
      });
    doc.endMarkedContent();
    doc.markContent('Artifact', { type: 'Pagination' });
    drawQr(doc, qr, PAGE.width - MARGIN.right - QR.size, QR.top, QR.size);
    doc.endMarkedContent();
    doc.page.margins.bottom = keep;
  }
  root.end();
  doc.end();
  return done;
}

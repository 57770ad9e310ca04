import type QRCode from 'qrcode';
import type { PdfRow } from './model.js';

/**
 * The page and the running layout of a request's PDF: the page's geometry and colours, and a
 * cursor (`y`) that writes text blocks and label/value tables down the page, starting a new page
 * when one does not fit. Every text goes in as a structure element (tagged PDF); rules and
 * lines are artifacts. The parts of the PDF built with it: pdf/parts.ts; the whole: pdf/render.ts.
 */

export const PAGE = { width: 595.28, height: 841.89 };
// The top margin holds the QR code (42 pt, from 18 pt below the edge: inside what printers print).
export const MARGIN = { top: 72, bottom: 64, left: 56, right: 56 };
export const CONTENT_WIDTH = PAGE.width - MARGIN.left - MARGIN.right;
const LABEL_WIDTH = 170;
const GUTTER = 12;
const VALUE_X = MARGIN.left + LABEL_WIDTH + GUTTER;
const VALUE_WIDTH = CONTENT_WIDTH - LABEL_WIDTH - GUTTER;
export const BOTTOM = PAGE.height - MARGIN.bottom;
/** The most a page holds between its margins. */
export const PAGE_SPACE = BOTTOM - MARGIN.top;
export const INK = '#000000';
export const MUTED = '#3d3d3d';
const RULE = '#8a8a8a';

export type Doc = PDFKit.PDFDocument;
export type Struct = PDFKit.PDFStructureElement;

/**
 * A QR code's modules as a square of `size` points at (x, y): each run of dark modules in a row
 * is one rectangle, all filled at once. The caller leaves the quiet zone.
 */
export function drawQr(doc: Doc, modules: QRCode.BitMatrix, x: number, y: number, size: number): void {
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

export class Layout {
  /** Where the next block starts on the current page. */
  y = MARGIN.top;

  constructor(readonly doc: Doc) {}

  /** Starts a new page unless `h` points still fit on this one. */
  ensureSpace(h: number): void {
    if (this.y + h > BOTTOM) {
      this.doc.addPage();
      this.y = MARGIN.top;
    }
  }

  /** Draws something that is not content (a rule, a line to write on, a QR code). */
  artifact(draw: () => void): void {
    this.doc.markContent('Artifact', { type: 'Layout' });
    draw();
    this.doc.endMarkedContent();
  }

  /** A thin rule across the page, then `gap` points. */
  rule(gap = 6): void {
    this.artifact(() => {
      this.doc
        .moveTo(MARGIN.left, this.y)
        .lineTo(PAGE.width - MARGIN.right, this.y)
        .lineWidth(0.5)
        .strokeColor(RULE)
        .stroke();
    });
    this.y += gap;
  }

  /**
   * Height of a text in a column, and whether it is one line. A text narrower than the column
   * is one line: measuring its width is much cheaper than running the line wrapper, and most
   * values are short.
   */
  measure(text: string, width: number): { h: number; oneLine: boolean } {
    const doc = this.doc;
    if (!text.includes('\n') && doc.widthOfString(text) <= width)
      return { h: doc.currentLineHeight(true), oneLine: true };
    return { h: doc.heightOfString(text, { width }), oneLine: false };
  }

  /** Writes a text at (x, top); a one-line text skips the line wrapper. */
  put(text: string, x: number, top: number, width: number, oneLine: boolean): void {
    if (oneLine) this.doc.text(text, x, top, { lineBreak: false });
    else this.doc.text(text, x, top, { width });
  }

  /** A block of text as a structure element of `type` under `parent`, then `gap` points. */
  block(parent: Struct, type: string, text: string, font: string, size: number, color = INK, gap = 4): void {
    const doc = this.doc;
    doc.font(font).fontSize(size);
    const m = this.measure(text, CONTENT_WIDTH);
    this.ensureSpace(Math.min(m.h, PAGE_SPACE));
    const top = this.y;
    parent.add(
      doc.struct(type, {}, () => {
        doc.fillColor(color);
        this.put(text, MARGIN.left, top, CONTENT_WIDTH, m.oneLine);
      }),
    );
    this.y = m.oneLine ? top + m.h + gap : doc.y + gap;
  }

  /** Label/value rows as a table of row headers and cells. */
  table(parent: Struct, rows: PdfRow[]): void {
    if (rows.length === 0) return;
    const doc = this.doc;
    const t = doc.struct('Table');
    parent.add(t);
    for (const r of rows) {
      doc.font('Regular').fontSize(9);
      const lm = this.measure(r.label, LABEL_WIDTH);
      doc.fontSize(10);
      const vm = this.measure(r.value, VALUE_WIDTH);
      const h = Math.max(lm.h, vm.h);
      // A row stays on one page unless it is longer than a page (a long reason for a stay).
      const fits = h <= PAGE_SPACE;
      this.ensureSpace(fits ? h : PAGE_SPACE);
      const top = this.y;
      const tr = doc.struct('TR');
      t.add(tr);
      tr.add(
        doc.struct('TH', { scope: 'Row' } as { title?: string }, () => {
          doc.fontSize(9).fillColor(MUTED);
          this.put(r.label, MARGIN.left, top + 1, LABEL_WIDTH, lm.oneLine);
        }),
      );
      tr.add(
        doc.struct('TD', {}, () => {
          doc.fontSize(10).fillColor(INK);
          this.put(r.value, VALUE_X, top, VALUE_WIDTH, vm.oneLine);
        }),
      );
      // A value longer than a page runs on over the page break: continue below where it ended.
      this.y = fits ? top + h + 5 : doc.y + 5;
    }
    t.end();
  }
}

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
/** The frame around each value: its line and how far it stands off the text. */
const FRAME = '#b0b0b0';
const FRAME_PAD = 3;

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

  /** `continued`: after a label repeated on the next page for the rest of a long value ("(continued)"). */
  constructor(
    readonly doc: Doc,
    readonly continued = '(continued)',
  ) {}

  /** Starts a new page. */
  newPage(): void {
    this.doc.addPage();
    this.y = MARGIN.top;
  }

  /** Starts a new page unless `h` points still fit on this one. */
  ensureSpace(h: number): void {
    if (this.y + h > BOTTOM) this.newPage();
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

  /**
   * A value's visual lines in a column of `width` at the current font: its own line breaks, then
   * words wrapped to the width (a word wider than the column is cut).
   */
  lines(text: string, width: number): string[] {
    const doc = this.doc;
    const out: string[] = [];
    for (const paragraph of text.split(/\r\n|\r|\n/)) {
      let line = '';
      for (const word of paragraph.split(/(?<=\s)/)) {
        if (doc.widthOfString(line + word) <= width) {
          line += word;
          continue;
        }
        if (line.trim() !== '') out.push(line.trimEnd());
        line = '';
        let rest = word;
        while (doc.widthOfString(rest.trimEnd()) > width) {
          let n = rest.length - 1;
          while (n > 1 && doc.widthOfString(rest.slice(0, n)) > width) n--;
          out.push(rest.slice(0, n));
          rest = rest.slice(n);
        }
        line = rest;
      }
      out.push(line.trimEnd());
    }
    return out;
  }

  /**
   * Label/value rows as a table of row headers and cells. Every value stands beside its label in
   * a frame (an artifact), so nothing the applicant typed can pass for the form's own text
   * (issue 33 item 9). A row stays on one page; a value longer than a page goes on in a new row
   * on the next page whose label is the same with "(continued)", never on its own.
   */
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
      if (h <= PAGE_SPACE - 2 * FRAME_PAD) {
        this.ensureSpace(h + 2 * FRAME_PAD);
        this.row(t, r.label, lm.oneLine, [r.value], vm.oneLine, h);
        continue;
      }
      // Longer than a page: as many lines as fit, then the rest under the label "(continued)".
      const lineH = doc.currentLineHeight(true);
      let rest = this.lines(r.value, VALUE_WIDTH);
      let label = r.label;
      while (rest.length > 0) {
        let fit = Math.floor((BOTTOM - this.y - 2 * FRAME_PAD) / lineH);
        if (fit < 3 && this.y > MARGIN.top) {
          this.newPage();
          fit = Math.floor((PAGE_SPACE - 2 * FRAME_PAD) / lineH);
        }
        const part = rest.slice(0, Math.max(1, fit));
        rest = rest.slice(part.length);
        doc.font('Regular').fontSize(9);
        const lh = this.measure(label, LABEL_WIDTH);
        this.row(t, label, lh.oneLine, part, part.length === 1, Math.max(lh.h, part.length * lineH));
        label = `${r.label} ${this.continued}`;
        if (rest.length > 0) this.newPage();
      }
    }
    t.end();
  }

  /** One row at `this.y`: the label, the value's lines in their frame; `h` the taller of the two. */
  private row(
    t: Struct,
    label: string,
    labelOneLine: boolean,
    lines: string[],
    oneLine: boolean,
    h: number,
  ): void {
    const doc = this.doc;
    const top = this.y + FRAME_PAD;
    const tr = doc.struct('TR');
    t.add(tr);
    tr.add(
      doc.struct('TH', { scope: 'Row' } as { title?: string }, () => {
        doc.font('Regular').fontSize(9).fillColor(MUTED);
        this.put(label, MARGIN.left, top + 1, LABEL_WIDTH, labelOneLine);
      }),
    );
    let bottom = top + h;
    tr.add(
      doc.struct('TD', {}, () => {
        doc.font('Regular').fontSize(10).fillColor(INK);
        if (lines.length === 1) {
          this.put(lines[0] as string, VALUE_X, top, VALUE_WIDTH, oneLine);
          if (!oneLine) bottom = Math.max(bottom, doc.y);
        } else {
          const lineH = doc.currentLineHeight(true);
          lines.forEach((line, i) => {
            doc.text(line, VALUE_X, top + i * lineH, { lineBreak: false });
          });
        }
      }),
    );
    this.artifact(() => {
      doc
        .rect(
          VALUE_X - FRAME_PAD,
          top - FRAME_PAD + 0.5,
          VALUE_WIDTH + 2 * FRAME_PAD,
          bottom - top + 2 * FRAME_PAD - 1,
        )
        .lineWidth(0.4)
        .strokeColor(FRAME)
        .stroke();
    });
    this.y = bottom + FRAME_PAD + 3;
  }
}

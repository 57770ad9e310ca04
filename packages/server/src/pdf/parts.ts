import QRCode from 'qrcode';
import {
  CONTENT_WIDTH,
  drawQr,
  INK,
  type Layout,
  MARGIN,
  MUTED,
  PAGE,
  PAGE_SPACE,
  type Struct,
} from './layout.js';
import type { PdfModel } from './model.js';

/**
 * The parts of a request's PDF after its sections (pdf/render.ts puts them together): the status
 * link's QR code, the declarations, the attachments, the signature block, and on every page
 * the page number and the reference's QR code.
 */

const QR = { size: 42, top: 18 };
/** The status link's QR code on the first page (a longer text than the reference: more modules). */
const STATUS_QR_SIZE = 64;

/** The status page's link as a QR code (an artifact: the note beside it names the link). */
export function statusBlock(l: Layout, root: Struct, status: { url: string; note: string }): void {
  const doc = l.doc;
  const size = STATUS_QR_SIZE;
  l.ensureSpace(size + 8);
  const top = l.y;
  const modules = QRCode.create(status.url, { errorCorrectionLevel: 'M' }).modules;
  l.artifact(() => drawQr(doc, modules, MARGIN.left, top, size));
  const x = MARGIN.left + size + 12;
  doc.font('Regular').fontSize(9);
  const width = CONTENT_WIDTH - size - 12;
  root.add(
    doc.struct('P', {}, () => {
      doc.fillColor(INK).text(status.note, x, top + 4, { width });
    }),
  );
  // The link on a line of its own (never broken at a hyphen), and clickable in a PDF reader.
  const linkTop = doc.y + 2;
  root.add(
    doc.struct('Link', {}, () => {
      doc.fillColor(INK).text(status.url, x, linkTop, { width, link: status.url, underline: true });
    }),
  );
  l.y = Math.max(top + size, doc.y) + 8;
}

/**
 * The signature block's geometry, in points: what `signatureHeight` measures and `signature`
 * draws, so that the space kept for it is the space it takes.
 */
const SIGNATURE = {
  /** Above the block. */
  before: 8,
  /** Below the heading: with lines to write on, and without (after NIA sign-in). */
  headingGap: { lines: 22, plain: 6 },
  /** From the end of the heading's gap to the lines to write on. */
  toLine: 12,
  /** From the lines to the note below them. */
  lineToNote: 30,
  /** Below the note. */
  after: 4,
  /** The least it asks for: the space the block has always asked for. */
  least: 110,
  /** The label sits this far above the line, the line this far below its baseline point. */
  labelAbove: 10,
  lineDrop: 2,
  /** The caption under the signature line. */
  captionBelow: 6,
  /** Place and date fields (from the left margin), and where the signature line starts. */
  place: { x: 0, width: 190 },
  date: { x: 205, width: 140 },
  signatureX: 360,
  /** Font sizes: heading; note with lines, note without. */
  headingSize: 12,
  noteSize: { lines: 9, plain: 10 },
} as const;

/** The height the signature block takes, as `signature` draws it (at least SIGNATURE.least). */
export function signatureHeight(l: Layout, model: PdfModel): number {
  const doc = l.doc;
  const s = model.signature;
  doc.font('Bold').fontSize(SIGNATURE.headingSize);
  const head = l.measure(s.heading, CONTENT_WIDTH).h;
  doc.font('Regular').fontSize(s.lines ? SIGNATURE.noteSize.lines : SIGNATURE.noteSize.plain);
  const note = l.measure(s.note, CONTENT_WIDTH).h;
  const middle = s.lines
    ? SIGNATURE.headingGap.lines + SIGNATURE.toLine + SIGNATURE.lineToNote
    : SIGNATURE.headingGap.plain;
  return Math.max(SIGNATURE.least, SIGNATURE.before + head + middle + note + SIGNATURE.after);
}

/** The attachments' height as `attachments` draws them (0 without). */
function attachmentsHeight(l: Layout, model: PdfModel): number {
  if (!model.attachments) return 0;
  const doc = l.doc;
  doc.font('Bold').fontSize(12);
  let h = 4 + l.measure(model.attachments.heading, CONTENT_WIDTH).h + 5;
  doc.font('Regular').fontSize(10);
  for (const a of model.attachments.items) h += l.measure(a, CONTENT_WIDTH).h + 4;
  return h;
}

/**
 * The declarations as ticked in the confirmation dialog. The last one is kept on one page with
 * the signature block (`signatureH` high) when no attachments come between them.
 */
export function declarations(l: Layout, root: Struct, model: PdfModel, signatureH: number): void {
  const doc = l.doc;
  const decl = doc.struct('Sect');
  root.add(decl);
  l.ensureSpace(60);
  l.rule(10);
  l.block(decl, 'H2', model.declarations.heading, 'Bold', 12, INK, 5);
  const list = doc.struct('L');
  decl.add(list);
  model.declarations.items.forEach((item, i) => {
    doc.font('Regular').fontSize(10);
    const h = doc.heightOfString(item.text, { width: CONTENT_WIDTH - 22 });
    const last = i === model.declarations.items.length - 1 && !model.attachments;
    const keep = last ? h + 5 + signatureH : h;
    l.ensureSpace(keep <= PAGE_SPACE ? keep : h);
    const top = l.y;
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
    l.y = doc.y + 5;
  });
  list.end();
  decl.end();
}

/** The attachments, kept on one page with the signature block when they fit. */
export function attachments(l: Layout, root: Struct, model: PdfModel, signatureH: number): void {
  if (!model.attachments) return;
  const att = l.doc.struct('Sect');
  root.add(att);
  const keep = attachmentsHeight(l, model) + signatureH;
  l.ensureSpace(keep <= PAGE_SPACE ? Math.max(50, keep) : 50);
  l.y += 4;
  l.block(att, 'H2', model.attachments.heading, 'Bold', 12, INK, 5);
  for (const a of model.attachments.items) l.block(att, 'P', a, 'Regular', 10, INK, 4);
  att.end();
}

/** Place, date and signature: labels as text, the lines to write on as artifacts. */
export function signature(l: Layout, root: Struct, model: PdfModel, signatureH: number): void {
  const doc = l.doc;
  const s = model.signature;
  const sig = doc.struct('Sect');
  root.add(sig);
  l.ensureSpace(signatureH);
  l.y += SIGNATURE.before;
  if (s.lines) {
    l.block(sig, 'H2', s.heading, 'Bold', SIGNATURE.headingSize, INK, SIGNATURE.headingGap.lines);
    const lineY = l.y + SIGNATURE.toLine;
    const line = (from: number, to: number) =>
      l.artifact(() => {
        doc
          .moveTo(from, lineY + SIGNATURE.lineDrop)
          .lineTo(to, lineY + SIGNATURE.lineDrop)
          .lineWidth(0.7)
          .strokeColor(INK)
          .stroke();
      });
    const field = (label: string, at: { x: number; width: number }) => {
      const x = MARGIN.left + at.x;
      doc.font('Regular').fontSize(10);
      const lw = doc.widthOfString(label) + 6;
      sig.add(
        doc.struct('P', {}, () => {
          doc.fillColor(INK).text(label, x, lineY - SIGNATURE.labelAbove, { lineBreak: false });
        }),
      );
      line(x + lw, x + at.width);
    };
    field(s.place, SIGNATURE.place);
    field(s.date, SIGNATURE.date);
    const signatureX = MARGIN.left + SIGNATURE.signatureX;
    line(signatureX, PAGE.width - MARGIN.right);
    sig.add(
      doc.struct('P', {}, () => {
        doc
          .font('Regular')
          .fontSize(9)
          .fillColor(MUTED)
          .text(s.line, signatureX, lineY + SIGNATURE.captionBelow, {
            width: PAGE.width - MARGIN.right - signatureX,
          });
      }),
    );
    l.y = lineY + SIGNATURE.lineToNote;
    l.block(sig, 'P', s.note, 'Regular', SIGNATURE.noteSize.lines, MUTED, SIGNATURE.after);
  } else {
    // After NIA sign-in nothing is signed: the note says so instead of the lines.
    l.block(sig, 'H2', s.heading, 'Bold', SIGNATURE.headingSize, INK, SIGNATURE.headingGap.plain);
    l.block(sig, 'P', s.note, 'Regular', SIGNATURE.noteSize.plain, INK, SIGNATURE.after);
  }
  sig.end();
}

/**
 * Page numbers and the reference as a QR code (error correction M: a smudge or a staple hole
 * still scans) on every page, as pagination artifacts, once the number of pages is known.
 */
export function pageFurniture(l: Layout, model: PdfModel): void {
  const doc = l.doc;
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
}

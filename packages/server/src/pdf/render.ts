import PDFDocument from 'pdfkit';
import { loadFonts } from './fonts.js';
import { PDF_LABELS } from './labels.js';
import { INK, Layout, MARGIN, MUTED } from './layout.js';
import type { PdfModel } from './model.js';
import {
  attachments,
  declarations,
  pageFurniture,
  signature,
  signatureHeight,
  statusBlock,
} from './parts.js';

/**
 * Lays out a request (PdfModel) as an A4 PDF with pdfkit: DejaVu Sans embedded as a subset
 * (every Czech letter; pdf/fonts.ts), tagged for assistive technology (document language, title
 * shown instead of the file name, a structure tree of headings, label/value tables and the
 * declarations as a list; rules, lines, page numbers and the QR code are artifacts). Every page
 * carries the reference number as a QR code, so that a scan of the signed paper finds the
 * electronic request (docs/intake.md). Ligatures are off: the text layer holds plain letters
 * ("fi", not "ﬁ"), so search and copy work. Pure CPU work: it runs in a worker thread (pool.ts).
 * The page and its running layout: pdf/layout.ts; the parts after the sections: pdf/parts.ts.
 */

export { loadFonts };

export function renderPdf(model: PdfModel, now: Date = new Date()): Promise<Buffer> {
  const f = loadFonts();
  const doc = new PDFDocument({
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
  const l = new Layout(doc, PDF_LABELS[model.lang].continued);

  // Title, reference, the short instruction.
  l.block(root, 'H1', model.title, 'Bold', 16, INK, 6);
  l.table(root, model.header);
  l.block(root, 'P', model.intro, 'Regular', 9, MUTED, 8);
  if (model.status) statusBlock(l, root, model.status);
  l.rule(10);

  for (const s of model.sections) {
    const sect = doc.struct('Sect');
    root.add(sect);
    l.ensureSpace(40);
    l.block(sect, 'H2', s.heading, 'Bold', 12, INK, 5);
    l.table(sect, s.rows);
    for (const g of s.groups) {
      l.ensureSpace(34);
      l.block(sect, 'H3', g.heading, 'Bold', 10, INK, 3);
      l.table(sect, g.rows);
    }
    if (s.note) l.block(sect, 'P', s.note, 'Regular', 10, MUTED, 4);
    sect.end();
    l.y += 6;
  }

  // The signature block is kept on one page with the part before it (the attachments, else the
  // last declaration), never alone.
  const signatureH = signatureHeight(l, model);
  declarations(l, root, model, signatureH);
  attachments(l, root, model, signatureH);
  signature(l, root, model, signatureH);

  pageFurniture(l, model);
  root.end();
  doc.end();
  return done;
}

import { createCanvas } from '@napi-rs/canvas';
import jsQRModule from 'jsqr';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

/**
 * The QR codes on a PDF's pages, read as a phone reads a printed page: each page rendered by
 * pdf.js at about 150 dpi on white, then decoded with jsQR. One helper for the PDF tests
 * (pdf/render.test.ts) and the browser tests (e2e/status.spec.ts).
 */

// jsqr is CommonJS whose types declare an ES default export: take the function either way.
type Decode = (data: Uint8ClampedArray, width: number, height: number) => { data: string } | null;
const jsQR: Decode =
  (jsQRModule as unknown as { default?: Decode }).default ?? (jsQRModule as unknown as Decode);

/**
 * The text of the QR code found on each page (null where none is), of the first `pages` pages
 * (default all). `leftHalf`: only the page's left half is read (the status link's code on page 1;
 * the reference's code is in the top right corner of every page).
 */
export async function pdfQrCodes(
  pdf: Uint8Array,
  opts: { pages?: number; leftHalf?: boolean } = {},
): Promise<Array<string | null>> {
  const doc = await getDocument({ data: new Uint8Array(pdf), useSystemFonts: false }).promise;
  const found: Array<string | null> = [];
  try {
    const count = Math.min(doc.numPages, opts.pages ?? doc.numPages);
    for (let p = 1; p <= count; p++) {
      const page = await doc.getPage(p);
      // About 150 dpi, a phone's view of a printed page.
      const viewport = page.getViewport({ scale: 2 });
      const canvas = createCanvas(Math.ceil(viewport.width), Math.ceil(viewport.height));
      const context = canvas.getContext('2d');
      context.fillStyle = '#ffffff';
      context.fillRect(0, 0, canvas.width, canvas.height);
      await page.render({ canvas: canvas as never, canvasContext: context as never, viewport }).promise;
      const width = opts.leftHalf ? Math.floor(canvas.width / 2) : canvas.width;
      const image = context.getImageData(0, 0, width, canvas.height);
      found.push(jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data ?? null);
    }
  } finally {
    await doc.destroy();
  }
  return found;
}

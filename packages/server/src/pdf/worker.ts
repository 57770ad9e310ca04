import { parentPort } from 'node:worker_threads';
import { loadFonts } from './fonts.js';
import type { PdfModel } from './model.js';
import { renderPdf } from './render.js';

/** A PDF worker thread (pool.ts): renders one model per message, answering with the bytes. */
export interface PdfJob {
  id: number;
  model: PdfModel;
}
export type PdfJobResult =
  | { id: number; ok: true; pdf: Uint8Array }
  | { id: number; ok: false; error: string };
/** The worker's first message: its modules and fonts are loaded, jobs run from now on. */
export interface PdfWorkerReady {
  ready: true;
}

if (!parentPort) throw new Error('pdf/worker.js runs as a worker thread');
const port = parentPort;
loadFonts();
port.on('message', (job: PdfJob) => {
  renderPdf(job.model).then(
    (buf) => {
      // Hand the bytes over without copying them.
      const pdf = new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
      const transfer = buf.byteOffset === 0 && buf.byteLength === buf.buffer.byteLength ? [buf.buffer] : [];
      port.postMessage({ id: job.id, ok: true, pdf } satisfies PdfJobResult, transfer as ArrayBuffer[]);
    },
    (err: unknown) => {
      port.postMessage({
        id: job.id,
        ok: false,
        error: err instanceof Error ? err.message : String(err),
      } satisfies PdfJobResult);
    },
  );
});
port.postMessage({ ready: true } satisfies PdfWorkerReady);

import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { PdfModel } from './model.js';
import type { PdfJob, PdfJobResult, PdfWorkerReady } from './worker.js';

/**
 * A small pool of worker threads that render PDFs, so that the layout work (a few
 * milliseconds of CPU each) never blocks the event loop serving other requests. Workers start
 * on first use, hold no reference to the process while idle, and a crashed worker is replaced.
 * Jobs wait in a bounded queue; past it `render` fails fast with PdfBusyError.
 */
export class PdfBusyError extends Error {
  constructor() {
    super('Too many PDFs are being generated; try again');
  }
}

export interface PdfPoolOptions {
  /** Worker threads, 1-2 by default (one per spare core, at most two). */
  size?: number;
  /** Jobs waiting beyond the running ones before `render` refuses. */
  maxQueue?: number;
  /** A job that takes longer fails (and its worker is replaced); counted from the worker's ready message. */
  timeoutMs?: number;
  /** A worker not ready (modules and fonts loaded) within this fails its job and is replaced. */
  startTimeoutMs?: number;
}

interface Slot {
  worker: Worker;
  /** The worker said it is ready: a job's time runs from then (its start is not the job's). */
  ready: boolean;
  /** While not ready: the bound on its start. */
  startTimer?: NodeJS.Timeout;
  job: {
    id: number;
    resolve: (b: Buffer) => void;
    reject: (e: Error) => void;
    timer?: NodeJS.Timeout;
  } | null;
}

/**
 * The worker: the compiled worker.js; when running from TypeScript source (tests, tsx), a tiny
 * bootstrap that registers tsx in the worker thread first and then loads worker.ts.
 */
function startWorker(): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./worker.js', import.meta.url));
  // The ESM entry of tsx's API (require.resolve finds its CommonJS twin beside it).
  const tsxApi = pathToFileURL(
    createRequire(import.meta.url)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  ).href;
  const entry = new URL('./worker.ts', import.meta.url).href;
  const code = `import(${JSON.stringify(tsxApi)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(code, { eval: true });
}

export class PdfPool {
  private readonly size: number;
  private readonly maxQueue: number;
  private readonly timeoutMs: number;
  private readonly startTimeoutMs: number;
  private readonly slots: Slot[] = [];
  private readonly queue: Array<{
    model: PdfModel;
    resolve: (b: Buffer) => void;
    reject: (e: Error) => void;
  }> = [];
  private nextId = 1;
  private closed = false;
  private done = 0;

  constructor(opts: PdfPoolOptions = {}) {
    this.size = Math.max(1, Math.min(opts.size ?? Math.min(2, Math.max(1, availableParallelism() - 1)), 8));
    this.maxQueue = opts.maxQueue ?? 64;
    this.timeoutMs = opts.timeoutMs ?? 15_000;
    this.startTimeoutMs = opts.startTimeoutMs ?? 60_000;
  }

  /** Worker threads at most (ROS_PDF_WORKERS, or 1-2). */
  get maxWorkers(): number {
    return this.size;
  }

  /** Worker threads running now (0 before the first PDF and after close). */
  get workers(): number {
    return this.slots.length;
  }

  /** PDFs made so far. */
  get rendered(): number {
    return this.done;
  }

  render(model: PdfModel): Promise<Buffer> {
    if (this.closed) return Promise.reject(new Error('The PDF pool is closed'));
    return new Promise<Buffer>((resolve, reject) => {
      const idle = this.idleSlot();
      if (idle) this.run(idle, model, resolve, reject);
      else if (this.queue.length >= this.maxQueue) reject(new PdfBusyError());
      else this.queue.push({ model, resolve, reject });
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const q of this.queue.splice(0)) q.reject(new Error('The PDF pool is closed'));
    await Promise.all(this.slots.splice(0).map((s) => s.worker.terminate()));
  }

  private idleSlot(): Slot | undefined {
    const free = this.slots.find((s) => s.job === null);
    if (free) return free;
    if (this.slots.length < this.size) return this.spawn();
    return undefined;
  }

  private spawn(): Slot {
    const worker = startWorker();
    worker.unref();
    const slot: Slot = { worker, ready: false, job: null };
    slot.startTimer = setTimeout(
      () => this.replace(slot, new Error('PDF worker did not start')),
      this.startTimeoutMs,
    );
    slot.startTimer.unref();
    worker.on('message', (msg: PdfJobResult | PdfWorkerReady) => {
      if ('ready' in msg) {
        clearTimeout(slot.startTimer);
        slot.ready = true;
        if (slot.job) this.startClock(slot);
        return;
      }
      const job = slot.job;
      if (!job || job.id !== msg.id) return;
      clearTimeout(job.timer);
      slot.job = null;
      worker.unref();
      if (msg.ok) this.done++;
      if (msg.ok) job.resolve(Buffer.from(msg.pdf.buffer, msg.pdf.byteOffset, msg.pdf.byteLength));
      else job.reject(new Error(`PDF generation failed: ${msg.error}`));
      this.next(slot);
    });
    const fail = (err: Error) => {
      this.replace(slot, err);
    };
    worker.on('error', fail);
    worker.on('exit', (code) => {
      if (!this.closed) fail(new Error(`PDF worker stopped (exit code ${code})`));
    });
    this.slots.push(slot);
    return slot;
  }

  /** A worker that crashed or hung: its job fails, the worker is dropped and the queue goes on. */
  private replace(slot: Slot, err: Error) {
    const i = this.slots.indexOf(slot);
    if (i === -1) return;
    this.slots.splice(i, 1);
    slot.worker.removeAllListeners();
    slot.worker.on('error', () => {});
    clearTimeout(slot.startTimer);
    void slot.worker.terminate();
    if (slot.job) {
      clearTimeout(slot.job.timer);
      slot.job.reject(err);
      slot.job = null;
    }
    const waiting = this.queue.shift();
    if (waiting && !this.closed) this.run(this.spawn(), waiting.model, waiting.resolve, waiting.reject);
  }

  private next(slot: Slot) {
    const waiting = this.queue.shift();
    if (waiting) this.run(slot, waiting.model, waiting.resolve, waiting.reject);
  }

  private run(slot: Slot, model: PdfModel, resolve: (b: Buffer) => void, reject: (e: Error) => void) {
    const id = this.nextId++;
    slot.job = { id, resolve, reject };
    if (slot.ready) this.startClock(slot);
    // Keep the process alive while a job runs (the worker is unref'd while idle).
    slot.worker.ref();
    slot.worker.postMessage({ id, model } satisfies PdfJob);
  }

  /** The job's time limit, from now (the worker is ready). */
  private startClock(slot: Slot) {
    if (!slot.job) return;
    slot.job.timer = setTimeout(
      () => this.replace(slot, new Error('PDF generation timed out')),
      this.timeoutMs,
    );
    slot.job.timer.unref();
  }
}

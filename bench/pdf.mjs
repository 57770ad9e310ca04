#!/usr/bin/env node
/**
 * Benchmark of the request PDF (GET /api/ros/pdf/{id}), from the built server
 * (packages/server/dist: run `npm run build` first). Three measurements, one after another, each
 * after a warm-up, of a full request (every section filled, 6 past activities, 2 stays abroad,
 * Czech diacritics everywhere):
 *   1. render     — pdfkit layout of the document in this thread (the CPU cost of one PDF);
 *   2. pool       — the same through the worker-thread pool the route uses (adds the hand-over);
 *   3. GET        — the whole route through Fastify (inject): database read on SQLite, code names,
 *                   worker, headers and bytes.
 * Printed: median and p95 in milliseconds for each, the target (median <= 25 ms) and the machine's
 * load (this is a shared machine: a high load average makes every number slower). A JSON copy goes
 * to bench/results/ (not committed).
 *
 *   node bench/pdf.mjs [--iterations 200] [--warmup 30]
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const repo = fileURLToPath(new URL('..', import.meta.url));
const dist = (p) => pathToFileURL(join(repo, 'packages/server/dist', p)).href;
const { values: args } = parseArgs({
  options: { iterations: { type: 'string', default: '200' }, warmup: { type: 'string', default: '30' } },
});
const ITERATIONS = Number(args.iterations);
const WARMUP = Number(args.warmup);
const TARGET_MEDIAN_MS = 25;

const [{ buildApp }, { loadConfig }, { openDatabase }, { migrateToLatest }, { seedStaticLists }, reference] =
  await Promise.all([
    import(dist('app.js')),
    import(dist('config/config.js')),
    import(dist('db/database.js')),
    import(dist('db/migrations.js')),
    import(dist('reference/store.js')),
    import(dist('reference/index.js')),
  ]);
const { storeRequest, bodyHash } = await import(dist('requests/repository.js'));
const { buildPdfModel, loadCodeNames } = await import(dist('pdf/model.js'));
const { renderPdf } = await import(dist('pdf/render.js'));
const { PdfPool } = await import(dist('pdf/pool.js'));
const { pdfRoutes } = await import(dist('routes/pdf.js'));

/** A long, fully filled request (made-up person). */
function values() {
  const activities = [
    ['09/2019', '02/2021', '1', 'Letiště Václava Havla Praha', 'Technik odbavení'],
    ['03/2017', '08/2019', '1', 'České aerolinie a.s.', 'Mechanik letadel'],
    ['09/2013', '06/2017', '2', 'České vysoké učení technické v Praze', 'Letecká doprava'],
    ['07/2013', '08/2013', '3', 'Brigáda – úklid hangárů, Ostrava-Mošnov', ''],
    ['01/2012', '06/2013', '1', 'Řízení letového provozu ČR, s. p.', 'Asistent'],
    ['09/2008', '12/2011', '2', 'Střední průmyslová škola dopravní, Plzeň', 'Dopravní prostředky'],
  ];
  return {
    first_name: 'Žofie',
    last_name: 'Řeháková-Šťastná',
    birth_name: 'Nováková',
    sex: '2',
    birth_date: '1992-11-23',
    birth_number: '9261230006',
    birth_municipality: '554782',
    birth_district: '40924',
    birth_state: 'CZ',
    citizen_of_1: 'CZ',
    citizen_of_2: 'SK',
    other_citizenships: ['AT'],
    document_type: 'OP_CR',
    document_number: '987654321',
    home_street: 'Dlouhá',
    home_house_num: '1234',
    home_org_num: '56a',
    home_city: 'Ústí nad Labem',
    home_zip: '40001',
    home_state: 'CZ',
    employer_current_name: 'Letiště Václava Havla Praha, a. s.',
    employer_current_from: '03/2021',
    employer_verification_type: 'OSVEDCENI1',
    employer_current_description: 'Bezpečnostní kontrola cestujících a zavazadel v neveřejné části letiště',
    employer_current_position: 'Vedoucí směny',
    reason_for_request: 'Vstup do vyhrazeného bezpečnostního prostoru',
    contact_company: 'Letiště Václava Havla Praha, a. s.',
    contact_street: 'K Letišti',
    contact_house_num: '1019',
    contact_org_num: '6',
    contact_city: 'Praha 6',
    contact_zip: '16008',
    contact_state: 'CZ',
    telephone: '777123456',
    email: 'zofie.rehakova@example.cz',
    data_mailbox: 'abc1234',
    delivery_type: 'DATOVKOU',
    duplicate_type: [],
    aifo: '',
    past_activities: activities.map(([from, to, type, field1, field2]) => ({
      from,
      to,
      type,
      field1,
      field2,
    })),
    abroad_stay: [
      { state: 'SK', reason: 'Studijní pobyt na Žilinské univerzitě, obor letecká doprava. '.repeat(6) },
      { state: 'AT', reason: 'Pracovní stáž ve Vídni (údržba letadel), září až prosinec 2012.' },
    ],
    send_notifications_email: true,
    send_notifications_phone: true,
  };
}

const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
async function measure(name, fn) {
  for (let i = 0; i < WARMUP; i++) await fn();
  const times = [];
  for (let i = 0; i < ITERATIONS; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const r = { name, median: percentile(times, 50), p95: percentile(times, 95), max: times[times.length - 1] };
  console.log(
    `${name.padEnd(8)} median ${r.median.toFixed(2).padStart(7)} ms   p95 ${r.p95.toFixed(2).padStart(7)} ms   max ${r.max.toFixed(1)} ms`,
  );
  return r;
}

const dataDir = mkdtempSync(join(tmpdir(), 'ros-bench-pdf-'));
const config = loadConfig({
  ROS_DATA_DIR: dataDir,
  LOG_LEVEL: 'silent',
  ROS_DEMO_DATA: 'false',
  ROS_REFERENCE_DOWNLOAD: 'false',
  ROS_RATE_LIMIT_VALIDITY: '1000000',
});
const db = openDatabase({ dataDir });
const pool = new PdfPool();
let app;
try {
  await migrateToLatest(db.kysely, db.dialect);
  await seedStaticLists(db);
  await reference.loadBuiltin({ config, db, version: 'bench' });
  const v = values();
  const stored = await storeRequest(db, {
    language: 'cs',
    duplicate: false,
    viaNia: false,
    values: v,
    personKey: 'bench',
    idempotencyKey: null,
    bodyHash: bodyHash(v),
    legal: {
      version: '1',
      ticked: { signature: true, affidavit: true, purpose: true, notify_email: false, notify_phone: false },
    },
  });
  const request = stored.request;
  const model = buildPdfModel(request, await loadCodeNames(db, request.values, 'cs'));
  const sample = await renderPdf(model);

  app = await buildApp({ config, db, version: 'bench' });
  if (!app.hasRoute({ method: 'GET', url: '/api/ros/pdf/:id' })) {
    await app.register(async (api) => api.register(pdfRoutes, { config, db, version: 'bench' }), {
      prefix: '/api/ros',
    });
  }
  await app.ready();

  console.log(
    `PDF benchmark: ${ITERATIONS} iterations after ${WARMUP} warm-up, ${sample.length} bytes, ` +
      `${cpus().length} CPUs, load average ${loadavg()[0].toFixed(2)}`,
  );
  const results = [];
  results.push(await measure('render', () => renderPdf(model)));
  results.push(await measure('pool', () => pool.render(model)));
  results.push(
    await measure('GET', async () => {
      const res = await app.inject({ method: 'GET', url: `/api/ros/pdf/${request.id}` });
      if (res.statusCode !== 200) throw new Error(`GET answered ${res.statusCode}`);
    }),
  );
  const get = results[2];
  const ok = get.median <= TARGET_MEDIAN_MS;
  console.log(
    `target: GET median <= ${TARGET_MEDIAN_MS} ms: ${ok ? 'met' : 'NOT met'} (load average ${loadavg()[0].toFixed(2)})`,
  );
  mkdirSync(join(repo, 'bench/results'), { recursive: true });
  const file = join(repo, 'bench/results', `pdf-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(
    file,
    JSON.stringify(
      {
        date: new Date().toISOString(),
        cpus: cpus().length,
        loadavg: loadavg(),
        iterations: ITERATIONS,
        bytes: sample.length,
        results,
      },
      null,
      2,
    ),
  );
  process.exitCode = ok ? 0 : 1;
} finally {
  await app?.close();
  await pool.close();
  await db.close();
  rmSync(dataDir, { recursive: true, force: true });
}

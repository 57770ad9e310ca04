import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { toValidityDisplayDate, validityCheckPath } from '@ros/domain';
import type { AppContext } from '../context.js';
import { demoCheckLinks } from '../demo/records.js';
import { detectFormat } from '../imports/files.js';
import { formatImportErrors, parseRecordsFile, validateRecordValues } from '../records/import.js';
import { isInForce, registerToday } from '../records/records.js';
import {
  findRecord,
  insertRecord,
  missingPersons,
  revokeRecord,
  saveRecords,
} from '../records/repository.js';
import { dispatch, usagePrinter } from './dispatch.js';

/**
 * `ros-admin records …`: the operators' commands for certificates.
 * Exit codes: 0 done, 1 the data or the database said no (nothing was changed), 2 wrong usage.
 */

const USAGE = [
  'Usage: ros-admin records <command>',
  '  load FILE                 load certificates from a .json or .csv file (all or nothing;',
  '                            an existing id is updated). Fields: see docs/validity.md',
  '  issue --id N --first-name X --last-name Y --valid-until YYYY-MM-DD',
  '        [--a1a3 DATE] [--a2 DATE] [--person-id N]',
  '                            issue one certificate and print its check link',
  '  revoke ID                 revoke a certificate (its check answers "not verified")',
  '  show ID                   show a certificate and its check link',
  '  demo-links [--base URL]   print the check links of the demo certificates',
];

const usage = usagePrinter('records', USAGE);

function parseId(s: string | undefined): number | null {
  if (!s || !/^[0-9]{1,16}$/.test(s)) return null;
  const n = Number(s);
  return Number.isSafeInteger(n) && n >= 1 ? n : null;
}

export function run(args: string[], ctx: AppContext, out: (line: string) => void): Promise<number> {
  return dispatch(args, out, usage, {
    load: (rest) => load(rest, ctx, out),
    issue: (rest) => issue(rest, ctx, out),
    revoke: (rest) => revoke(rest, ctx, out),
    show: (rest) => show(rest, ctx, out),
    'demo-links': (rest) => demoLinks(rest, out),
  });
}

async function load(args: string[], ctx: AppContext, out: (line: string) => void): Promise<number> {
  const { positionals } = parseArgs({ args, allowPositionals: true, options: {} });
  const [file, extra] = positionals;
  if (!file || extra !== undefined) return usage(out, 'load needs exactly one FILE');
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    out(`ros-admin records: cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
    return 1;
  }
  const name = basename(file);
  const parsed = parseRecordsFile(text, detectFormat(file, text));
  if (!parsed.ok) {
    for (const line of formatImportErrors(name, parsed.errors)) out(line);
    out(`Nothing was loaded: ${parsed.errors.length} problem(s) in ${name}.`);
    return 1;
  }
  const personIds = parsed.records.flatMap((r) => (r.person_id === null ? [] : [r.person_id]));
  const missing = await missingPersons(ctx.db, personIds);
  if (missing.size > 0) {
    // Line numbers are known only while parsing; name the certificates instead.
    const bad = parsed.records.filter((r) => r.person_id !== null && missing.has(r.person_id));
    for (const r of bad.slice(0, 50))
      out(`${name}: certificate ${r.id}: no person with person_id ${r.person_id}`);
    if (bad.length > 50) out(`… and ${bad.length - 50} more`);
    out(`Nothing was loaded: ${bad.length} certificate(s) name persons the register does not hold.`);
    return 1;
  }
  const result = await saveRecords(ctx.db, parsed.records);
  out(
    `Loaded ${parsed.records.length} certificate(s) from ${name}: ${result.inserted} new, ${result.updated} updated.`,
  );
  return 0;
}

async function issue(args: string[], ctx: AppContext, out: (line: string) => void): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      id: { type: 'string' },
      'first-name': { type: 'string' },
      'last-name': { type: 'string' },
      'valid-until': { type: 'string' },
      a1a3: { type: 'string' },
      a2: { type: 'string' },
      'person-id': { type: 'string' },
    },
  });
  if (positionals.length > 0) return usage(out, `unexpected argument "${positionals[0]}"`);
  for (const required of ['id', 'first-name', 'last-name', 'valid-until'] as const) {
    if (values[required] === undefined) return usage(out, `issue needs --${required}`);
  }
  const checked = validateRecordValues({
    id: values.id,
    first_name: values['first-name'],
    last_name: values['last-name'],
    platnost_do: values['valid-until'],
    a1a3_valid_until: values.a1a3,
    a2_valid_until: values.a2,
    person_id: values['person-id'],
  });
  if (!checked.ok) {
    for (const p of checked.problems) out(`ros-admin records issue: ${p}`);
    return 1;
  }
  const record = checked.record;
  if (record.person_id !== null && (await missingPersons(ctx.db, [record.person_id])).size > 0) {
    out(`ros-admin records issue: no person with person_id ${record.person_id}`);
    return 1;
  }
  if (!(await insertRecord(ctx.db, record))) {
    out(`ros-admin records issue: certificate ${record.id} exists already (use "load" to change it)`);
    return 1;
  }
  out(`Issued certificate ${record.id}, valid until ${toValidityDisplayDate(record.platnost_do)}.`);
  out(`Check link: ${validityCheckPath(record.id, record.platnost_do)}`);
  return 0;
}

async function revoke(args: string[], ctx: AppContext, out: (line: string) => void): Promise<number> {
  const { positionals } = parseArgs({ args, allowPositionals: true, options: {} });
  const id = parseId(positionals[0]);
  if (id === null || positionals.length !== 1) return usage(out, 'revoke needs one certificate id');
  const result = await revokeRecord(ctx.db, id);
  if (result === 'unknown') {
    out(`ros-admin records revoke: no certificate ${id}`);
    return 1;
  }
  out(result === 'revoked' ? `Certificate ${id} is revoked.` : `Certificate ${id} was revoked already.`);
  return 0;
}

async function show(args: string[], ctx: AppContext, out: (line: string) => void): Promise<number> {
  const { positionals } = parseArgs({ args, allowPositionals: true, options: {} });
  const id = parseId(positionals[0]);
  if (id === null || positionals.length !== 1) return usage(out, 'show needs one certificate id');
  const r = await findRecord(ctx.db, id);
  if (!r) {
    out(`ros-admin records show: no certificate ${id}`);
    return 1;
  }
  const date = (d: string | null) => (d ? (toValidityDisplayDate(d) ?? d) : '-');
  out(`Certificate ${r.id}`);
  out(`  name:          ${r.first_name} ${r.last_name}`);
  out(`  person_id:     ${r.person_id ?? '-'}`);
  out(`  stav:          ${r.stav}${r.revoked_at ? ` (revoked ${r.revoked_at})` : ''}`);
  out(`  platnost_do:   ${date(r.platnost_do)}`);
  out(`  A1/A3 until:   ${date(r.a1a3_valid_until)}`);
  out(`  A2 until:      ${date(r.a2_valid_until)}`);
  out(`  in force:      ${isInForce(r, registerToday()) ? 'yes' : 'no'}`);
  out(`  check link:    ${validityCheckPath(r.id, r.platnost_do)}`);
  return 0;
}

function demoLinks(args: string[], out: (line: string) => void): number {
  const { values } = parseArgs({ args, options: { base: { type: 'string' } } });
  const base = (values.base ?? '').replace(/\/+$/, '');
  for (const link of demoCheckLinks()) out(`${base}${link.path}  ${link.description}`);
  return 0;
}

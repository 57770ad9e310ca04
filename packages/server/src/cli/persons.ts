import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import type { AppContext } from '../context.js';
import { loadPersonFile, type PersonFileFormat, PersonImportError } from '../register/import.js';
import { findPersons, getPerson, NiaIdentifierTakenError, recordOf } from '../register/persons.js';

const USAGE = [
  'Usage: ros-admin persons <subcommand>',
  '  load FILE [--format json|csv]   load persons from a JSON or CSV file (docs/register.md);',
  '                                  a bad row stops the load and nothing is stored',
  '  show ID                         print one person as stored (register field names)',
  '  find [--first NAME] [--last NAME] [--birth-number RC] [--document NUMBER]',
  '                                  list matching persons (id and name)',
];

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i === -1 ? undefined : args[i + 1];
}

/** ros-admin persons load FILE | show ID | find … */
export async function run(args: string[], ctx: AppContext, out: (line: string) => void): Promise<number> {
  const [sub, ...rest] = args;
  switch (sub) {
    case 'load': {
      const file = rest.find((a, i) => !a.startsWith('--') && rest[i - 1] !== '--format');
      if (!file) {
        for (const l of USAGE) out(l);
        return 2;
      }
      const given = option(rest, '--format');
      const format: PersonFileFormat | undefined =
        given === 'json' || given === 'csv'
          ? given
          : given === undefined
            ? extname(file).toLowerCase() === '.csv'
              ? 'csv'
              : extname(file).toLowerCase() === '.json'
                ? 'json'
                : undefined
            : undefined;
      if (!format) {
        out(`Cannot tell the format of ${file}: name it .json or .csv or add --format json|csv`);
        return 2;
      }
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (err) {
        out(`Cannot read ${file}: ${err instanceof Error ? err.message : String(err)}`);
        return 1;
      }
      try {
        const r = await loadPersonFile(ctx.db, text, format);
        out(`Loaded ${r.created + r.updated} persons: ${r.created} new, ${r.updated} replaced.`);
        return 0;
      } catch (err) {
        if (err instanceof PersonImportError) {
          out(err.message);
          return 1;
        }
        if (err instanceof NiaIdentifierTakenError) {
          out(`The file was not loaded: ${err.message}`);
          return 1;
        }
        throw err;
      }
    }
    case 'show': {
      const id = Number(rest[0]);
      if (!rest[0] || !Number.isSafeInteger(id) || id <= 0) {
        out('Usage: ros-admin persons show ID');
        return 2;
      }
      const p = await getPerson(ctx.db, id);
      if (!p) {
        out(`No person with id ${id}.`);
        return 1;
      }
      const record = await recordOf(ctx.db, id);
      out(
        JSON.stringify(
          { id: p.id, aifo: p.aifo, documents: p.documents, ...p.person, record: record ?? null },
          null,
          2,
        ),
      );
      return 0;
    }
    case 'find': {
      const q = {
        first_name: option(rest, '--first'),
        last_name: option(rest, '--last'),
        birth_number: option(rest, '--birth-number'),
        document: option(rest, '--document'),
      };
      if (!q.first_name && !q.last_name && !q.birth_number && !q.document) {
        out(
          'Usage: ros-admin persons find [--first NAME] [--last NAME] [--birth-number RC] [--document NUMBER]',
        );
        return 2;
      }
      const found = await findPersons(ctx.db, q);
      if (found.length === 0) {
        out('No person matches.');
        return 1;
      }
      for (const p of found) out(`${p.id}\t${p.jmeno} ${p.prijmeni}`);
      return 0;
    }
    default:
      for (const l of USAGE) out(l);
      return sub === undefined || sub === 'help' || sub === '--help' ? 0 : 2;
  }
}

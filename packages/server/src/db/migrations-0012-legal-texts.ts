import type { Kysely, Migration } from 'kysely';
import type { DialectName } from './database.js';

/**
 * What the applicant agreed to (issue 22): the version of the legal texts the confirmation
 * dialog showed and which of its boxes were ticked. Rows stored before were shown version 1
 * (requests/repository.ts storedLegal reads them so).
 */
export function legalTextMigrations(_dialect: DialectName): Record<string, Migration> {
  return {
    '0012_legal_texts': {
      // biome-ignore lint/suspicious/noExplicitAny: migrations work on any schema
      async up(db: Kysely<any>) {
        await db.schema.alterTable('requests').addColumn('legal_version', 'varchar(16)').execute();
        await db.schema.alterTable('requests').addColumn('declarations', 'text').execute();
        await db.updateTable('requests').set({ legal_version: '1' }).execute();
      },
    },
  };
}

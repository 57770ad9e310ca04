import type { AppContext } from '../context.js';
import { seedDemoPersons } from '../demo/persons.js';
import { loadBuiltin } from '../reference/index.js';
import { seedStaticLists } from '../reference/store.js';

/** What the search, submit and sign-in routes need: the reference lists and the demo people. */
export async function seedFormData(ctx: AppContext): Promise<void> {
  await seedStaticLists(ctx.db);
  await loadBuiltin(ctx);
  await seedDemoPersons(ctx.db);
}

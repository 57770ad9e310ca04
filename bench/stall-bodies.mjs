/**
 * Hostile request bodies (issue 11, "one request stops everything"): the shapes an attacker
 * uses to keep a JSON server busy, for every public POST of the portal. Used by
 * bench/stall.mjs (the worst event-loop stall per body) and by the server's test
 * packages/server/src/requests/hostileBodies.test.ts (each body gets a 4xx, /healthz stays prompt).
 *
 * Two sets per route:
 * - the issue's own bodies at their own sizes (50,000 / 170,000 empty activities, 100,000
 *   zeros, ...), whatever the route's limit: most now end at the byte limit (413);
 * - each shape scaled to just under the route's byte limit (`fit`), so that it gets past
 *   the limit and must be stopped by what comes after it (the shape scan, the schema).
 */

/** The public POST calls and a well-formed base body of each. */
export const POST_ROUTES = [
  { path: '/api/ros/search', base: { first_name: 'Jan', last_name: 'Novák', type: 'OP_CR', number: '1' } },
  { path: '/api/ros/search-birth-number', base: { birth_number: '850315/1008' } },
  {
    path: '/api/ros/validate',
    base: {
      first_name: 'Jan',
      last_name: 'Novák',
      birth_date: '1985-03-15',
      document_number: '1',
      birth_number: '850315/1008',
      duplicate: false,
    },
  },
  { path: '/api/ros', base: { first_name: 'Jan', last_name: 'Novák', language: 'cs', duplicate: false } },
];

const repeatJoin = (item, n) => new Array(n).fill(item).join(',');
/** The base body as JSON with one more member written as raw JSON text. */
const withRaw = (base, key, rawValue) => {
  const head = JSON.stringify(base);
  return `${head.slice(0, -1)}${head.length > 2 ? ',' : ''}${JSON.stringify(key)}:${rawValue}}`;
};
/** How many items of `itemBytes` fill `bytes`. */
const fill = (bytes, itemBytes) => Math.max(1, Math.floor(bytes / itemBytes));

/**
 * The hostile bodies of one route: `{ name, text }` with `text` the raw JSON. `fit` is the number
 * of bytes a body may take to stay under the route's byte limit (omit it for the fixed set only).
 */
export function hostileBodies(route, fit) {
  const { base } = route;
  const bodies = [
    // The bodies, at their sizes.
    {
      name: '50,000 empty activities (150 KB)',
      text: withRaw(base, 'past_activities', `[${repeatJoin('{}', 50_000)}]`),
    },
    {
      name: '170,000 empty activities (511 KB)',
      text: withRaw(base, 'past_activities', `[${repeatJoin('{}', 170_000)}]`),
    },
    {
      name: '100,000 zeros in duplicate_type',
      text: withRaw(base, 'duplicate_type', `[${repeatJoin('0', 100_000)}]`),
    },
    {
      name: 'nesting 500,000 deep (1 MB)',
      text: withRaw(base, 'other_citizenships', `${'['.repeat(500_000)}${']'.repeat(500_000)}`),
    },
    {
      name: '50,000 keys',
      text: `{${Array.from({ length: 50_000 }, (_, i) => `"k${i}":0`).join(',')}}`,
    },
    { name: 'a 1 MB string', text: JSON.stringify({ ...base, first_name: 'x'.repeat(1024 * 1024) }) },
  ];
  if (fit === undefined) return bodies;
  const room = fit - JSON.stringify(base).length - 40;
  const row = '{"from":1,"to":[],"type":9,"field1":{},"field2":null}';
  return [
    ...bodies,
    {
      name: 'fit: empty activities',
      text: withRaw(base, 'past_activities', `[${repeatJoin('{}', fill(room, 3))}]`),
    },
    {
      name: 'fit: wrong rows (5 issues each)',
      text: withRaw(base, 'past_activities', `[${repeatJoin(row, fill(room, row.length + 1))}]`),
    },
    {
      name: 'fit: zeros in duplicate_type',
      text: withRaw(base, 'duplicate_type', `[${repeatJoin('0', fill(room, 2))}]`),
    },
    {
      name: 'fit: deep nesting',
      text: withRaw(base, 'other_citizenships', `${'['.repeat(fill(room, 2))}${']'.repeat(fill(room, 2))}`),
    },
    {
      name: 'fit: many keys',
      text: withRaw(
        base,
        'abroad_stay',
        `{${Array.from({ length: fill(room, 12) }, (_, i) => `"k${i}":0`).join(',')}}`,
      ),
    },
    {
      name: 'fit: long string',
      text: JSON.stringify({ ...base, first_name: 'x'.repeat(Math.max(1, room)) }),
    },
    {
      name: 'fit: lone surrogates and NULs',
      text: JSON.stringify({ ...base, last_name: '\ud800\u0000'.repeat(fill(room, 12)) }),
    },
  ];
}

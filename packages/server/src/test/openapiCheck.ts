import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { buildOpenApi } from '../openapi.js';

/**
 * Every answer of every server test, checked against the OpenAPI document (docs/api.md): the
 * setup file (contractSetup.ts) hooks each Fastify app the tests build, and this module says
 * what is wrong with an answer. Found problems fail the test that made the answer.
 */

type Json = Record<string, unknown>;

const doc = buildOpenApi('test') as unknown as Json & {
  paths: Record<string, Record<string, Json>>;
  components: { headers: Record<string, Json> };
};
const ajv = new Ajv2020({ strict: false, allErrors: true });
ajv.addSchema(doc, 'openapi');

const pointer = (...parts: string[]) =>
  parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

const compiled = new Map<string, ValidateFunction | undefined>();
function validator(...parts: string[]): ValidateFunction | undefined {
  const ref = `openapi#/${pointer(...parts)}`;
  if (!compiled.has(ref)) compiled.set(ref, ajv.getSchema(ref));
  return compiled.get(ref);
}

/** Headers whose presence the document must describe for the answer that carries them. */
const DESCRIBED_HEADERS = [
  'etag',
  'location',
  'content-disposition',
  'www-authenticate',
  'retry-after',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
];

export interface Answer {
  method: string;
  /** The route's pattern as Fastify has it ('/api/ros/:id/validity'); undefined when no route matched. */
  route: string | undefined;
  status: number;
  headers: Record<string, unknown>;
  /** The payload as sent (a string for JSON), or undefined for a stream. */
  payload: unknown;
  /** The parsed request body. */
  body: unknown;
}

/** The body's text, uncompressed when the server compressed it (the reference lists). */
function decoded(payload: string | Buffer, encoding: unknown): string {
  const bytes = Buffer.isBuffer(payload) ? payload : Buffer.from(payload, 'latin1');
  if (encoding === 'br') return brotliDecompressSync(bytes).toString('utf8');
  if (encoding === 'gzip') return gunzipSync(bytes).toString('utf8');
  if (encoding === 'deflate') return inflateSync(bytes).toString('utf8');
  return String(payload);
}

/** What the document says that this answer breaks (empty: it matches). */
export function answerProblems(a: Answer): string[] {
  const method = a.method.toLowerCase();
  const path = a.route?.replace(/:(\w+)/g, '{$1}').replace(/(.)\/$/, '$1');
  const operation = path ? doc.paths[path]?.[method] : undefined;
  if (!path || !operation) return []; // not an operation of the API (a page, /readyz, an unknown path)
  const name = `${method} ${path} ${a.status}`;
  const responses = operation.responses as Record<string, Json>;
  const status = String(a.status);
  const key = [status, `${status[0]}XX`, 'default'].find((k) => k in responses);
  if (!key) return [`${name}: status not in the document`];
  const response = responses[key] as Json;
  const problems: string[] = [];

  const declared = Object.fromEntries(
    Object.entries((response.headers ?? {}) as Record<string, Json>).map(([h, v]) => [
      h.toLowerCase(),
      typeof v.$ref === 'string' ? doc.components.headers[v.$ref.split('/').pop() as string] : v,
    ]),
  );
  for (const [header, spec] of Object.entries(declared)) {
    if (spec?.required && a.headers[header] === undefined) problems.push(`${name}: header ${header} missing`);
  }
  for (const header of DESCRIBED_HEADERS) {
    if (a.headers[header] !== undefined && !(header in declared))
      problems.push(`${name}: header ${header} is sent but not described`);
  }

  const content = response.content as Record<string, Json> | undefined;
  const type =
    String(a.headers['content-type'] ?? '')
      .split(';')[0]
      ?.trim() ?? '';
  const empty = a.payload === undefined || a.payload === null || a.payload === '';
  if (!content) {
    if (!empty && type) problems.push(`${name}: a ${type} body where the document describes none`);
  } else if (!(type in content)) {
    problems.push(
      `${name}: content type ${type || '(none)'} is not one of ${Object.keys(content).join(', ')}`,
    );
  } else if (type === 'application/json' && (typeof a.payload === 'string' || Buffer.isBuffer(a.payload))) {
    const validate = validator('paths', path, method, 'responses', key, 'content', type, 'schema');
    let value: unknown;
    try {
      value = JSON.parse(decoded(a.payload, a.headers['content-encoding']));
    } catch {
      problems.push(`${name}: the body is not JSON`);
    }
    if (value !== undefined && validate && !validate(value))
      problems.push(`${name}: the body breaks the schema: ${JSON.stringify(validate.errors?.slice(0, 3))}`);
  }

  // A body the server accepted must be one the document allows (no key it does not describe).
  if (a.status < 400 && operation.requestBody) {
    const validate = validator('paths', path, method, 'requestBody', 'content', 'application/json', 'schema');
    if (validate && !validate(a.body))
      problems.push(
        `${name}: accepted a body the document refuses: ${JSON.stringify(validate.errors?.slice(0, 3))}`,
      );
  }
  return problems;
}

const found: string[] = [];

export function recordAnswer(a: Answer): void {
  for (const problem of answerProblems(a)) found.push(problem);
}

/** The problems found since the last call (the setup file's afterEach fails the test on them). */
export function takeProblems(): string[] {
  return found.splice(0, found.length);
}

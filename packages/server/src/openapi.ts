import {
  type ApiCall,
  apiErrorBodySchema,
  COMMON_ERROR_CODES,
  PUBLIC_API_CALLS,
  REFERENCE_LIST_SCHEMAS,
} from '@ros/domain';
import { z } from 'zod';
import { INTAKE_API_BASE, INTAKE_API_CALLS, type IntakeCall } from './intake/contract.js';
import { SCOPES } from './intake/tokens.js';

/**
 * The OpenAPI 3.1 document of the public API (spec section 7) and the intake API, generated
 * from the contract's zod schemas (packages/domain/src/api, intake/contract.ts) with zod's own
 * z.toJSONSchema: no shape is written here by hand. What the contract does not hold (operation
 * ids, which calls are rate limited, the response headers) is listed below, once. Served at
 * GET /api/docs (routes/docs.ts); docs/api.md says how it is checked (Redocly, Spectral, ajv).
 */

type JsonSchema = Record<string, unknown>;

/** Bodies are described as the server reads them, answers as it writes them. */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    // Refinements and transforms (the text policy, a birth number's check digit) cannot be
    // written in JSON Schema: the document names the shape, the server's rules stay the rules.
    unrepresentable: 'any',
  }) as JsonSchema;
  return rest;
}

const json = (schema: JsonSchema) => ({ 'application/json': { schema } });

export const API_BASES = { public: '/api/ros', intake: INTAKE_API_BASE } as const;

/** The name client generators give each call; the reference lists are `list` + their name. */
const OPERATION_IDS: Record<string, string> = {
  'get /api/ros/sso-session': 'getSsoSession',
  'post /api/ros/sso-session/extend': 'extendSsoSession',
  'get /api/ros/{id}/validity': 'checkValidity',
  'post /api/ros/validate': 'validateRequest',
  'post /api/ros/search': 'searchPerson',
  'post /api/ros/search-birth-number': 'searchPersonByBirthNumber',
  'post /api/ros': 'submitRequest',
  'get /api/ros/pdf/{id}': 'downloadRequestPdf',
  'post /api/ros/status': 'getRequestStatus',
  'get /api/ros/metadata': 'getMetadata',
  'get /api/ros/sso-redirect': 'startSignIn',
  'get /api/ros/sso-callback': 'finishSignIn',
  'get /api/ros/sso-logout': 'signOut',
  'get /api/ros/sso-jwks': 'getSsoJwks',
  'get /api/ros/altcha-challenge': 'getAltchaChallenge',
  'get /api/intake/v1/requests': 'listRequests',
  'get /api/intake/v1/requests/{reference}': 'getRequest',
  'get /api/intake/v1/requests/{reference}/pdf': 'getRequestPdf',
  'post /api/intake/v1/requests/{reference}/received': 'markRequestReceived',
  'post /api/intake/v1/requests/{reference}/status': 'changeRequestStatus',
  'post /api/intake/v1/requests/{reference}/correction': 'correctRequestDecision',
  'put /api/intake/v1/records/{id}': 'putRecord',
  'put /api/intake/v1/persons/{id}': 'putPerson',
  'delete /api/intake/v1/persons/{id}': 'deletePerson',
};

const pascal = (name: string) => name.replace(/(^|-)([a-z])/g, (_m, _d, c: string) => c.toUpperCase());

function operationId(method: string, path: string): string {
  const listName = path.slice(API_BASES.public.length + 1);
  if (method === 'get' && listName in REFERENCE_LIST_SCHEMAS) return `list${pascal(listName)}`;
  const id = OPERATION_IDS[`${method} ${path}`];
  if (!id) throw new Error(`openapi.ts: no operationId for ${method} ${path}`);
  return id;
}

/**
 * Calls limited per client address by @fastify/rate-limit (its X-RateLimit-* headers on every
 * answer, Retry-After on 429): the route options in routes/*.ts. The validity check has its own
 * leaner limiter (Retry-After on 429 only), and so have the status page's look-up and the reference lists (OWN_LIMITER). The contract test (test/contractCheck.ts) fails
 * when an answer carries a header the document does not describe for it.
 */
const RATE_LIMITED = (method: string, path: string) =>
  path.startsWith(API_BASES.intake) ||
  [
    'post /api/ros/search',
    'post /api/ros/search-birth-number',
    'post /api/ros/validate',
    'post /api/ros',
    'get /api/ros/pdf/{id}',
    'get /api/ros/sso-redirect',
    'get /api/ros/sso-callback',
    'get /api/ros/sso-logout',
    'post /api/ros/sso-session/extend',
    'get /api/ros/altcha-challenge',
  ].includes(`${method} ${path}`);
const OWN_LIMITER = [
  'get /api/ros/{id}/validity',
  'post /api/ros/status',
  // The reference lists (ROS_RATE_LIMIT_LISTS, with /api/docs).
  ...Object.keys(REFERENCE_LIST_SCHEMAS).map((name) => `get /api/ros/${name}`),
];
/** Calls whose 503 says when to try again (NOT_READY, PDF_BUSY). */
const RETRY_ON_503 = [
  'get /api/ros/{id}/validity',
  'get /api/ros/pdf/{id}',
  'get /api/intake/v1/requests/{reference}/pdf',
];

const ref = (kind: 'headers' | 'schemas', name: string) => ({
  $ref: `#/components/${kind}/${name}`,
});
const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': ref('headers', 'RateLimitLimit'),
  'X-RateLimit-Remaining': ref('headers', 'RateLimitRemaining'),
  'X-RateLimit-Reset': ref('headers', 'RateLimitReset'),
};

/** The header objects the responses refer to (components.headers). */
const HEADERS = {
  ETag: {
    description: 'A strong tag of the list; send it back in If-None-Match to get 304',
    required: true,
    schema: { type: 'string' },
  },
  Location: { description: 'Where the browser goes next', required: true, schema: { type: 'string' } },
  ContentDisposition: {
    description: 'attachment; filename="{reference}.pdf"',
    required: true,
    schema: { type: 'string' },
  },
  WWWAuthenticate: {
    description: 'Bearer realm="ros-intake" (RFC 6750)',
    required: true,
    schema: { type: 'string' },
  },
  RetryAfter: {
    description: 'Seconds to wait before trying again',
    required: true,
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  RetryAfterOptional: {
    description: 'Seconds to wait before trying again (when the server knows)',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  RateLimitLimit: { description: 'Requests allowed per window', schema: { type: 'string' } },
  RateLimitRemaining: { description: 'Requests left in the window', schema: { type: 'string' } },
  RateLimitReset: { description: 'Seconds until the window resets', schema: { type: 'string' } },
};

const SUCCESS_DESCRIPTIONS: Record<string, string> = {
  200: 'OK',
  201: 'Created',
  204: 'No content',
  304: 'Not modified',
};

function responses(call: ApiCall, method: string, path: string): Record<string, unknown> {
  const key = `${method} ${path}`;
  const limited = RATE_LIMITED(method, path);
  const limitHeaders = limited ? RATE_LIMIT_HEADERS : {};
  const out: Record<string, unknown> = {};
  for (const [status, answer] of Object.entries(call.answers)) {
    const headers: Record<string, unknown> = { ...limitHeaders };
    if (
      path.startsWith(API_BASES.public) &&
      path.slice(API_BASES.public.length + 1) in REFERENCE_LIST_SCHEMAS
    )
      headers.ETag = ref('headers', 'ETag');
    if (status === '302') headers.Location = ref('headers', 'Location');
    if (answer === 'application/pdf') headers['Content-Disposition'] = ref('headers', 'ContentDisposition');
    const response: Record<string, unknown> = {
      description:
        typeof answer === 'string' && !answer.includes('/') ? answer : (SUCCESS_DESCRIPTIONS[status] ?? 'OK'),
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
    };
    if (typeof answer !== 'string')
      response.content = {
        [('mediaType' in call && call.mediaType) || 'application/json']: {
          schema: jsonSchema(answer, 'output'),
        },
      };
    else if (answer.includes('/'))
      response.content = { [answer]: { schema: { type: 'string', format: 'binary' } } };
    out[status] = response;
  }
  const error = (description: string, headers: Record<string, unknown>) => ({
    description,
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
    content: json(ref('schemas', 'Error')),
  });
  if (path.startsWith(API_BASES.intake)) {
    out[401] = error('No valid intake token (UNAUTHORIZED)', {
      ...limitHeaders,
      'WWW-Authenticate': ref('headers', 'WWWAuthenticate'),
    });
  }
  if (limited || OWN_LIMITER.includes(key)) {
    out[429] = error('Over the per-address limit (RATE_LIMITED)', {
      ...limitHeaders,
      'Retry-After': ref('headers', 'RetryAfter'),
    });
  }
  if (RETRY_ON_503.includes(key)) {
    out[503] = error('Not ready or busy: try again later', {
      ...limitHeaders,
      'Retry-After': ref('headers', 'RetryAfterOptional'),
    });
  }
  out['4XX'] = error('A refused request: the error shape (docs/errors.md)', limitHeaders);
  out['5XX'] = error('A fault or an unavailable server: the error shape (docs/errors.md)', limitHeaders);
  return out;
}

function operation(call: ApiCall | IntakeCall, tag: string, path: string) {
  const pathParams = [...call.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  const query = call.query
    ? Object.entries((jsonSchema(call.query, 'input').properties ?? {}) as Record<string, JsonSchema>).map(
        ([name, schema]) => ({
          name,
          in: 'query',
          required: call.query?.shape[name]?.safeParse(undefined).success === false,
          schema,
        }),
      )
    : [];
  const headers = (call.headers ?? []).map((h) => ({
    name: h.name,
    in: 'header',
    required: h.required,
    description: h.description,
    schema: { type: 'string' },
  }));
  const scopes = 'scopes' in call ? call.scopes : undefined;
  const codes = [...new Set([...(call.errors ?? []), ...COMMON_ERROR_CODES])];
  const description = [
    scopes ? `Needs an intake token with the scope ${scopes.join(', ')}.` : 'Public: no authentication.',
    `Error codes (docs/errors.md): ${codes.join(', ')}.`,
  ].join(' ');
  return {
    operationId: operationId(call.method, path),
    tags: [tag],
    summary: call.summary,
    description,
    // Public calls need nothing; each intake call names the scopes its token must hold.
    security: scopes ? [{ intakeToken: scopes }] : [],
    ...(pathParams.length + query.length + headers.length > 0
      ? { parameters: [...pathParams, ...query, ...headers] }
      : {}),
    ...(call.body ? { requestBody: { required: true, content: json(jsonSchema(call.body, 'input')) } } : {}),
    responses: responses(call, call.method, path),
  };
}

export function buildOpenApi(version: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  const add = (base: string, tag: string, calls: ApiCall[]) => {
    for (const call of calls) {
      const path = `${base}${call.path}`;
      paths[path] ??= {};
      paths[path][call.method] = operation(call, tag, path);
    }
  };
  add(API_BASES.public, 'public', PUBLIC_API_CALLS);
  add(API_BASES.intake, 'intake', INTAKE_API_CALLS);
  return {
    openapi: '3.1.0',
    info: {
      title: 'ROS portal API',
      version,
      description:
        'The public API of the ROS portal (used by its web app) and the authority intake API. ' +
        'Generated from the shared contract (packages/domain/src/api); see docs/api.md.',
      contact: {
        name: 'Úřad pro civilní letectví (Civil Aviation Authority), ROS',
        email: 'ros@caa.gov.cz',
        url: 'https://www.caa.gov.cz/en/contacts/',
      },
      license: { name: 'EUPL-1.2', identifier: 'EUPL-1.2' },
    },
    // Relative: the portal that serves the document (behind its proxy, at whatever address).
    servers: [{ url: '/', description: 'The portal that serves this document' }],
    tags: [
      { name: 'public', description: 'The portal web app calls (spec section 7)' },
      { name: 'intake', description: 'The authority back office (docs/intake.md), bearer tokens' },
    ],
    paths,
    components: {
      schemas: { Error: jsonSchema(apiErrorBodySchema, 'output') },
      headers: HEADERS,
      securitySchemes: {
        intakeToken: {
          type: 'http',
          scheme: 'bearer',
          description:
            'An intake token (ros-admin tokens create, docs/intake.md). Each operation lists the ' +
            `scopes the token must hold: ${SCOPES.join(', ')}.`,
        },
      },
    },
  };
}
export type OpenApiDocument = ReturnType<typeof buildOpenApi>;

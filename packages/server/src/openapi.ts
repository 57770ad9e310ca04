import { type ApiCall, apiErrorBodySchema, COMMON_ERROR_CODES, PUBLIC_API_CALLS } from '@ros/domain';
import { z } from 'zod';
import { INTAKE_API_CALLS } from './intake/contract.js';

/**
 * The OpenAPI 3.1 document of the public API (spec section 7) and the intake API, generated
 * from the contract's zod schemas (packages/domain/src/api, intake/contract.ts) with zod's own
 * z.toJSONSchema: no shape is written here by hand. Served at GET /api/docs (routes/docs.ts).
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

function operation(call: ApiCall, tag: string) {
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
  const responses: Record<string, unknown> = {};
  for (const [status, answer] of Object.entries(call.answers)) {
    if (typeof answer !== 'string') {
      responses[status] = { description: 'OK', content: json(jsonSchema(answer, 'output')) };
    } else if (answer.includes('/')) {
      responses[status] = { description: 'OK', content: { [answer]: { schema: {} } } };
    } else {
      responses[status] = { description: answer };
    }
  }
  const codes = [...(call.errors ?? []), ...COMMON_ERROR_CODES];
  responses.default = {
    description: `An error answer (docs/errors.md). Codes: ${[...new Set(codes)].join(', ')}`,
    content: json({ $ref: '#/components/schemas/Error' }),
  };
  return {
    tags: [tag],
    summary: call.summary,
    parameters: [...pathParams, ...query, ...headers],
    ...(call.body ? { requestBody: { required: true, content: json(jsonSchema(call.body, 'input')) } } : {}),
    responses,
  };
}

export const API_BASES = { public: '/api/ros', intake: '/api/intake/v1' } as const;

export function buildOpenApi(version: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  const add = (base: string, tag: string, calls: ApiCall[]) => {
    for (const call of calls) {
      const path = `${base}${call.path}`;
      paths[path] ??= {};
      paths[path][call.method] = operation(call, tag);
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
    },
    tags: [
      { name: 'public', description: 'The portal web app calls (spec section 7)' },
      { name: 'intake', description: 'The authority back office (docs/intake.md), bearer tokens' },
    ],
    paths,
    components: { schemas: { Error: jsonSchema(apiErrorBodySchema, 'output') } },
  };
}
export type OpenApiDocument = ReturnType<typeof buildOpenApi>;

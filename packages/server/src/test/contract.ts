import { Ajv2020 } from 'ajv/dist/2020.js';
import { expect } from 'vitest';
import { z } from 'zod';

const ajv = new Ajv2020({ strict: false, allErrors: true });

/**
 * Checks a real answer against a schema of the API contract as the OpenAPI document writes it
 * (z.toJSONSchema, output): exact objects, so a field the contract does not name fails too.
 */
export function expectContract(schema: z.ZodType, value: unknown): void {
  const validate = ajv.compile(
    z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'output', unrepresentable: 'any' }),
  );
  expect(validate(value), JSON.stringify(validate.errors)).toBe(true);
}

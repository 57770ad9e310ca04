import { describe, expect, it } from 'vitest';
import { maxLengthFor } from './fields.js';
import { validateBodySchema } from './validatePayload.js';

const body = (over: Record<string, unknown> = {}) => ({
  first_name: 'Jan',
  last_name: 'Novák',
  birth_date: '1985-03-15',
  municipality: '554782',
  document_number: '123456789',
  birth_number: '8503151234',
  duplicate: false,
  ...over,
});

describe('validateBodySchema', () => {
  it('has the form fields lengths: a first name of 50 passes, of 51 is refused as the form refuses it', () => {
    expect(maxLengthFor('first_name')).toBe(50);
    expect(validateBodySchema.safeParse(body({ first_name: 'J'.repeat(50) })).success).toBe(true);
    expect(validateBodySchema.safeParse(body({ first_name: 'J'.repeat(51) })).success).toBe(false);
    expect(validateBodySchema.safeParse(body({ last_name: 'N'.repeat(51) })).success).toBe(false);
  });

  it('accepts what the form accepts: a foreign birth number or a place of birth abroad up to their lengths', () => {
    const long = (path: string) => 'x'.repeat(maxLengthFor(path));
    expect(validateBodySchema.safeParse(body({ birth_number: long('birth_number') })).success).toBe(true);
    expect(validateBodySchema.safeParse(body({ municipality: long('birth_municipality') })).success).toBe(
      true,
    );
    expect(validateBodySchema.safeParse(body({ birth_number: `${long('birth_number')}x` })).success).toBe(
      false,
    );
  });
});

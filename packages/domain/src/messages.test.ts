import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isMessageKey, issuesToProblems, MAX_FIELD_PROBLEMS, MESSAGE_KEYS } from './messages.js';

describe('message keys', () => {
  it('are the 18 keys of the spec, each once, with the text policy and issue 22 keys', () => {
    // + invalidCharacters (issue 11), birthDateFuture, birthDateTooOld, dateIncomplete (issue 22),
    // tooManyLines, unprintableCharacters (issue 33).
    expect(MESSAGE_KEYS).toHaveLength(24);
    expect(new Set(MESSAGE_KEYS).size).toBe(24);
    expect(isMessageKey('maxlength')).toBe(true);
    expect(isMessageKey('birthNumberInvalidDay')).toBe(true);
    expect(isMessageKey('minlength')).toBe(false);
  });
});

describe('issuesToProblems', () => {
  const schema = z
    .object({
      name: z.string().max(3),
      code: z.string().regex(/^[A-Z]+$/, 'pattern'),
      list: z.array(z.object({ at: z.string() })),
    })
    .strict();
  const issues = (value: unknown) => schema.safeParse(value).error?.issues ?? [];

  it('gives each issue a dotted path and its message; unknown keys are named, "unrecognized"', () => {
    const problems = issuesToProblems(issues({ name: 'toolong', code: 'x', list: [{ at: 1 }], a: 1, b: 2 }));
    expect(problems).toContainEqual({ path: 'code', message: 'pattern' });
    expect(problems).toContainEqual({ path: 'a,b', message: 'unrecognized' });
    expect(problems.find((p) => p.path === 'list.0.at')?.message).toMatch(/expected string/);
    expect(problems.find((p) => p.path === 'name')?.message).toMatch(/Too big/);
  });

  it('with messageKeys, a too long value is maxlength (not required: zod issues carry no input)', () => {
    expect(issuesToProblems(issues({ name: 'toolong', code: 'A', list: [] }), { messageKeys: true })).toEqual(
      [{ path: 'name', message: 'maxlength' }],
    );
  });

  it('with messageKeys, answers only message keys: required for an absent value, else pattern', () => {
    const problems = issuesToProblems(issues({ code: 'x', list: [{}] }), { messageKeys: true });
    expect(problems).toEqual([
      { path: 'name', message: 'required' },
      { path: 'code', message: 'pattern' },
      { path: 'list.0.at', message: 'required' },
    ]);
    const wrongType = schema.safeParse({ name: 1, code: 'A', list: [] }, { reportInput: true }).error?.issues;
    expect(issuesToProblems(wrongType ?? [], { messageKeys: true })).toEqual([
      { path: 'name', message: 'pattern' },
    ]);
  });

  it('lists at most max problems (MAX_FIELD_PROBLEMS unless told)', () => {
    const many = z.array(z.string()).safeParse(Array.from({ length: 50 }, () => 1)).error?.issues ?? [];
    expect(many).toHaveLength(50);
    expect(issuesToProblems(many)).toHaveLength(MAX_FIELD_PROBLEMS);
    expect(issuesToProblems(many, { max: 5 }).map((p) => p.path)).toEqual(['0', '1', '2', '3', '4']);
  });
});

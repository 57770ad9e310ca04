/** The environment a configuration is read from (process.env, or a test's own). */
export type Env = Record<string, string | undefined>;

/**
 * How a setting is read from the environment, for config/config.ts and nia/config.ts: unset or empty
 * gives the default; a value that does not fit is a problem (the server refuses to start and
 * names it) and gives the default meanwhile.
 */
export function settingReaders(env: Env, problems: string[]) {
  /** A whole number from `min` to `max`. */
  const int = (name: string, def: number, min: number, max: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return def;
    if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
      problems.push(`${name}="${raw}" must be a whole number from ${min} to ${max}`);
      return def;
    }
    return Number(raw);
  };
  /** A number from `min` to `max`. */
  const num = (name: string, def: number, min: number, max: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return def;
    const n = Number(raw);
    if (!Number.isFinite(n) || n < min || n > max) {
      problems.push(`${name}="${raw}" must be a number from ${min} to ${max}`);
      return def;
    }
    return n;
  };
  /** One of `values`. */
  const oneOf = <T extends string>(name: string, def: T, values: readonly T[]): T => {
    const raw = env[name];
    if (raw === undefined || raw === '') return def;
    if (!(values as readonly string[]).includes(raw)) {
      problems.push(`${name}="${raw}" must be one of: ${values.join(', ')}`);
      return def;
    }
    return raw as T;
  };
  /** true/false (also 1/0, yes/no). */
  const bool = (name: string, def: boolean): boolean => {
    const raw = env[name];
    if (raw === undefined || raw === '') return def;
    if (['1', 'true', 'yes'].includes(raw.toLowerCase())) return true;
    if (['0', 'false', 'no'].includes(raw.toLowerCase())) return false;
    problems.push(`${name}="${raw}" must be true or false`);
    return def;
  };
  return { int, num, oneOf, bool };
}

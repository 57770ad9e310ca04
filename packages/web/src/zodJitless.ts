import { config } from 'zod';

/**
 * Imported first by main.tsx, before any schema of @ros/domain is built. The pages' CSP has no
 * 'unsafe-eval'; zod would probe `new Function` to compile fast parsers, and Chromium logs that
 * caught probe as a CSP violation on every page that builds an object schema (the form). Jitless
 * zod parses the same, without the probe. (The server keeps zod's default: no CSP there.)
 */
config({ jitless: true });

// zod/v4/core, not zod: the same global config, without zod's classic API and its English
// messages, which would otherwise land in the first chunk of every page (issue 14).
import { config } from 'zod/v4/core';

/**
 * Loaded by App.tsx before the form's chunk (form/FormPage.tsx), so before any schema of @ros/domain is built. The pages' CSP has no
 * 'unsafe-eval'; zod would probe `new Function` to compile fast parsers, and Chromium logs that
 * caught probe as a CSP violation on every page that builds an object schema (the form). Jitless
 * zod parses the same, without the probe. (The server keeps zod's default: no CSP there.)
 */
config({ jitless: true });

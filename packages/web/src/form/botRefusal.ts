import { ApiRequestError } from '../api/client';

/** No bot-check token could be had in the browser (the check did not load or was not solved). */
export class BotCheckError extends Error {}

/**
 * The call failed at the bot check: no token in the browser, or the server refused the token
 * (403 BOT_CHECK_*). The search and the send both say so in these words, not as a connection
 * problem (issue 35). A module of its own: the unit tests replace botcheck.tsx, not this rule.
 */
export const isBotCheckRefusal = (error: unknown): boolean =>
  error instanceof BotCheckError || (error instanceof ApiRequestError && error.code.startsWith('BOT_CHECK'));

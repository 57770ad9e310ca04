import type { SearchAnswer } from '@ros/domain';
import type { RetryFrom } from '../nia/niaStart';
import type { TypedInSearch } from '../prefillStart';

/**
 * Where the search step is (spec sections 2 and 4), one value instead of flags that could
 * disagree. Two things are not phases: a search in flight (`useSearchCall`'s `busy`: the page
 * keeps showing the phase it was sent from, the retry's boxes too) and a call that failed (bot
 * check, rate limit, server: the phase stays, a notice shows under the button). A person found
 * ends the step (`SearchOutcome`).
 */
export type SearchPhase =
  /** Nothing answered yet. */
  | { kind: 'idle' }
  /** The search found no one: a notice, or in duplicate mode the page's warning. */
  | { kind: 'notFound' }
  /**
   * Duplicate mode, a person without a certificate: the birth number is asked, the names and
   * document stay locked. `match` is the proof of the search before (its answer's, or the NIA
   * session's): the retry finds only that same person (docs/register.md).
   */
  | { kind: 'birthNumber'; match?: string }
  /** The birth number found no certificate either (duplicate mode); it may be tried again. */
  | { kind: 'birthNumberNotFound'; match?: string };

/** The retry state when the step starts from a NIA sign-in (duplicate mode), else idle. */
export const firstPhase = (retryFrom?: RetryFrom): SearchPhase =>
  retryFrom ? { kind: 'birthNumber', match: retryFrom.match } : { kind: 'idle' };

/** The step asks for the birth number (the retry state). */
export const asksBirthNumber = (
  phase: SearchPhase,
): phase is Extract<SearchPhase, { kind: 'birthNumber' | 'birthNumberNotFound' }> =>
  phase.kind === 'birthNumber' || phase.kind === 'birthNumberNotFound';

/** What the step hands on to the form. */
export type SearchOutcome =
  | { kind: 'found'; person: SearchAnswer }
  /** Fill in without a document: what was typed in the search goes on into the form. */
  | { kind: 'manual'; typed: TypedInSearch };

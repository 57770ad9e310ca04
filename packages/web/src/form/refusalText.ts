import { type RefusalReason, stateWords } from '@ros/domain';
import type { Translate } from '../shell/translate';

/**
 * The words of a probably refused request (issue 28, issue 36): the confirmation dialog's warning
 * and the told-early notice after the search (EarlyRefusal.tsx) say the same sentence, naming the
 * one reason with its dates. An earlier request is "filled in on the portal" in @ros/domain's
 * statusWords: the authority may not have it (a paper request not yet signed and sent).
 */

/** A day of the register ('YYYY-MM-DD') as people write it: "25. února 2027", "25 February 2027". */
export function longDate(iso: string, lang: 'cs' | 'en'): string {
  const [y, m, d] = iso.split('-').map(Number);
  return new Intl.DateTimeFormat(lang === 'en' ? 'en-GB' : 'cs-CZ', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1)));
}

/** The warning of a probably refused request, naming its one reason with its dates. */
export function reasonText(reason: RefusalReason, lang: 'cs' | 'en', t: Translate): string {
  return reason.rule === 'renewal-window'
    ? t('ALERTS.REFUSAL.RENEWAL_WINDOW', {
        validUntil: longDate(reason.validUntil, lang),
        from: longDate(reason.from, lang),
      })
    : t('ALERTS.REFUSAL.REPEAT_REQUEST', {
        filedOn: longDate(reason.filedOn, lang),
        until: longDate(reason.until, lang),
        filled: stateWords(lang, 'filled').state,
      });
}

import type { SearchAnswer } from '@ros/domain';
import { useState } from 'react';
import { ApiRequestError, apiPost } from '../../api/client';
import type { AlertType } from '../../shell/alerts';
import { useMetadata } from '../../shell/metadata';
import { getBotToken, resetBotCheck } from '../botcheck';
import { isBotCheckRefusal } from '../botRefusal';

/** What the last search asks of the person, shown under the search button. */
export interface SearchNotice {
  type: AlertType;
  key: string;
}

/**
 * The search step's calls to the API (`/search`, `/search-birth-number`), each with a fresh
 * bot-check token, and the notice a failed one leaves. The notice stays until closed or the next
 * search (issue 27): it is under the button, where focus already is, also at 400 % zoom.
 */
export function useSearchCall() {
  const metadata = useMetadata();
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<SearchNotice | null>(null);

  /** The person, null when none was found (404), undefined on any other failure (notice shown). */
  async function call(path: string, body: object): Promise<SearchAnswer | null | undefined> {
    setBusy(true);
    setNotice(null);
    try {
      const token = await getBotToken('SearchAction', metadata);
      return await apiPost<SearchAnswer>(path, body, { Recaptcha: token });
    } catch (err) {
      if (err instanceof ApiRequestError && err.status === 404) return null;
      if (isBotCheckRefusal(err)) {
        setNotice({ type: 'danger', key: 'SEARCH.BOT_CHECK_FAILED' });
      } else if (err instanceof ApiRequestError && err.status === 429) {
        setNotice({ type: 'warning', key: 'SEARCH.RATE_LIMITED' });
      } else {
        setNotice({ type: 'danger', key: 'SEARCH.ERROR' });
      }
      return undefined;
    } finally {
      // The token was used (or refused): the next search solves a new challenge.
      resetBotCheck();
      setBusy(false);
    }
  }

  return { busy, notice, setNotice, call };
}

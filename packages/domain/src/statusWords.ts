import type { RequestStatus } from './requestStatus.js';

/**
 * One vocabulary for where a request stands (issue 36, docs/status.md "What each surface
 * tells"): the confirmation dialog's warning, the success screen, the PDF, the e-mails, the SMS
 * and the status page all take their words for a request's state from here, so none of them
 * says "received" while the authority does not have the request yet.
 *
 * The states are the authority's statuses, with `new` told apart by route:
 * - `filled`: the request was filled in on the portal (the first step of every paper request);
 * - `waiting_paper`: a paper request the authority does not have until the signed PDF arrives;
 * - `sent`: a request sent to the authority electronically after NIA sign-in (its first step);
 *   such a request is received on arrival (issue 38, `arrivalState`);
 * - `waiting_authority`: a NIA request stored before issue 38 and still `new` (not yet taken over);
 * - then the statuses the authority reports: `received` … `withdrawn`.
 */
export type RequestState =
  | 'filled'
  | 'waiting_paper'
  | 'sent'
  | 'waiting_authority'
  | Exclude<RequestStatus, 'new'>;

/** How a request reached the portal: `pdf` (signed on paper) or `nia` (sent after NIA sign-in). */
export type RequestChannel = 'pdf' | 'nia';

export interface StateWords {
  /** Lower case, completing "the request is …": the e-mail, the SMS, "Current status: …". */
  state: string;
  /** A sentence of its own: a step of the status page's timeline, the PDF's status line. */
  step: string;
}

type Lang = 'cs' | 'en';

const WORDS: Record<Lang, Record<RequestState, StateWords>> = {
  cs: {
    filled: { state: 'vyplněna na portálu', step: 'Žádost vyplněna na portálu' },
    waiting_paper: {
      state: 'čeká na Vaši podepsanou žádost',
      step: 'Čekáme na Vaši podepsanou žádost – úřad ji zatím nemá',
    },
    sent: { state: 'odeslána úřadu elektronicky', step: 'Žádost odeslána úřadu elektronicky' },
    waiting_authority: { state: 'čeká na převzetí úřadem', step: 'Čeká na převzetí úřadem' },
    received: { state: 'přijata úřadem', step: 'Žádost přijata úřadem' },
    in_progress: { state: 've zpracování', step: 'Žádost ve zpracování' },
    documents_needed: { state: 'je třeba doložit podklady', step: 'Je třeba doložit podklady' },
    issued: {
      state: 'vyřízena: doklad byl vydán',
      step: 'Rozhodnuto: doklad o spolehlivosti byl vydán',
    },
    refused: {
      state: 'vyřízena: žádosti nebylo vyhověno',
      step: 'Rozhodnuto: žádosti nebylo vyhověno',
    },
    withdrawn: { state: 'vzata zpět', step: 'Žádost vzata zpět' },
  },
  en: {
    filled: { state: 'filled in on the portal', step: 'Request filled in on the portal' },
    waiting_paper: {
      state: 'waiting for your signed request',
      step: 'Waiting for your signed request – the Authority does not have it yet',
    },
    sent: {
      state: 'sent to the Authority electronically',
      step: 'Request sent to the Authority electronically',
    },
    waiting_authority: {
      state: 'waiting for the Authority to take it over',
      step: 'Waiting for the Authority to take it over',
    },
    received: { state: 'received by the Authority', step: 'Request received by the Authority' },
    in_progress: { state: 'being processed', step: 'Request being processed' },
    documents_needed: { state: 'documents needed', step: 'Documents needed' },
    issued: {
      state: 'decided: the certificate was issued',
      step: 'Decided: the background-check certificate was issued',
    },
    refused: { state: 'decided: the request was refused', step: 'Decided: the request was refused' },
    withdrawn: { state: 'withdrawn', step: 'Request withdrawn' },
  },
};

/** The words of one state in one language. */
export function stateWords(lang: Lang, state: RequestState): StateWords {
  return WORDS[lang][state];
}

/** Where a request with this status stands for its applicant: `new` by its route. */
export function requestState(status: RequestStatus, channel: RequestChannel): RequestState {
  if (status !== 'new') return status;
  return channel === 'pdf' ? 'waiting_paper' : 'waiting_authority';
}

/** The first step of a request: filled in (paper) or sent electronically (NIA). */
export function firstState(channel: RequestChannel): RequestState {
  return channel === 'pdf' ? 'filled' : 'sent';
}

/**
 * Where a request stands the moment it is stored, as the success screen tells it: a paper request
 * waits for its signed PDF (`new`); one sent after NIA sign-in is the authority's from the moment
 * it is sent (issue 38: the server stores it `received`, requests/store.ts receiveOnArrival).
 */
export function arrivalState(channel: RequestChannel): RequestState {
  return requestState(channel === 'pdf' ? 'new' : 'received', channel);
}

/** Every state, for the tests that check each surface uses these words. */
export const REQUEST_STATES = Object.keys(WORDS.cs) as RequestState[];

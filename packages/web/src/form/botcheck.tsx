import type { WidgetMethods } from 'altcha/types';
// Types only: the <altcha-widget> JSX element (the package's runtime file of it does not load in Node).
import type {} from 'altcha/types/react';
// The proof-of-work worker as a file of our own origin (CSP worker-src 'self'; no blob: URL).
import ShaWorker from 'altcha/workers/sha?worker';
import { useEffect, useRef, useState } from 'react';
import { useT } from '../shell/translate';
import { BotCheckError } from './botRefusal';

/**
 * The bot check of the search and submit steps (spec section 6: the token travels in the
 * `Recaptcha` header). Provider from the metadata:
 * - altcha: our server's proof of work, solved in the browser by the <altcha-widget> that
 *   <BotCheckWidget> renders (on the search step it loads and starts at the user's first
 *   touch, key or focus on the page, so that the page's load does not pay for it; the token is
 *   usually ready by the time they search);
 * - recaptcha: Google reCAPTCHA v3, script loaded from Google with the site key.
 * A token is accepted once by the server: every getBotToken() call gives a fresh one.
 */

export type BotAction = 'SearchAction' | 'SubmitFormAction';

export interface BotCheckSettings {
  botCheckProvider: string;
  recaptchaSiteKey: string;
}

export const ALTCHA_CHALLENGE_URL = '/api/ros/altcha-challenge';

type AltchaElement = HTMLElement & WidgetMethods;

let widget: AltchaElement | null = null;
let readyPayload: string | null = null;
/** Calls waiting for the widget's module to load (a quick user may search before that). */
let widgetWaiters: Array<(w: AltchaElement | null) => void> = [];
const WIDGET_WAIT_MS = 15000;
/** The solve in progress, shared: a second verify() would abort the first. */
let solving: Promise<string | null> | null = null;
/** Loads a deferred widget now (set while one waits for the user's first input). */
let wakeWidget: (() => void) | null = null;
/** What counts as the user's first input: the widget of the search step loads then. */
const WAKE_EVENTS = ['pointerdown', 'keydown', 'focusin', 'touchstart'] as const;

function setWidget(w: AltchaElement | null): void {
  widget = w;
  if (!w) return;
  const waiting = widgetWaiters;
  widgetWaiters = [];
  for (const resolve of waiting) resolve(w);
}

/** The widget, once its module has loaded; null when it does not within `ms`. */
function whenWidget(ms: number): Promise<AltchaElement | null> {
  if (widget) return Promise.resolve(widget);
  return new Promise((resolve) => {
    const done = (w: AltchaElement | null) => {
      clearTimeout(timer);
      widgetWaiters = widgetWaiters.filter((f) => f !== done);
      resolve(w);
    };
    const timer = setTimeout(() => done(null), ms);
    widgetWaiters.push(done);
  });
}

/**
 * A browser whose clock is far off (docs/bot-check.md, "A browser whose clock is far off"). The
 * widget judges a challenge's expiry, `parameters.expiresAt` (seconds, the server's clock), by
 * the page's Date.now(): it sets a timer of `expiresAt * 1000 - Date.now()` ms and, when that is
 * under 1 ms, calls the challenge expired at once. A clock more than the challenge's life ahead
 * so took every challenge for expired (no proof was ever ready); one behind kept a proof for
 * "fresh" long after the server's expiry. `expiresAt` is signed with the challenge (the server
 * refuses a changed one), and the widget puts the parameters it got into its payload as they are.
 * So the widget is given the expiry in the browser's time (the skew from the answer's Date
 * header), for its timer only, and the token we send carries the parameters the server signed.
 */

/** The parameters our server signed, by the challenge's signature (the last few challenges). */
const signedParameters = new Map<string, Record<string, unknown>>();
const SIGNED_KEPT = 8;

/**
 * Safety margin of the browser-time expiry: the Date header is in whole seconds (the server's
 * time is up to 1 s later than it says) and the answer took some time to arrive.
 */
const EXPIRY_MARGIN_MS = 2000;

interface ChallengeAnswer {
  parameters?: Record<string, unknown> & { expiresAt?: unknown };
  signature?: unknown;
}

/**
 * The widget's `fetch` for the challenge: the server's answer, with `parameters.expiresAt` moved
 * by the difference between the server's clock (its Date header) and the browser's, so that the
 * widget's timer runs out when the server's expiry comes. The signed parameters are kept for
 * signedToken(). Any other answer (an error, no Date header) goes to the widget unchanged.
 */
export async function challengeFetch(
  input: RequestInfo | URL,
  init?: RequestInit,
  fetchImpl: typeof fetch = fetch,
): Promise<Response> {
  const response = await fetchImpl(input, init);
  const received = Date.now();
  if (!response.ok) return response;
  let answer: ChallengeAnswer;
  try {
    answer = (await response.clone().json()) as ChallengeAnswer;
  } catch {
    return response;
  }
  const params = answer?.parameters;
  const expiresAt = params?.expiresAt;
  if (
    !params ||
    typeof params !== 'object' ||
    typeof expiresAt !== 'number' ||
    typeof answer.signature !== 'string'
  ) {
    return response;
  }
  signedParameters.set(answer.signature, params);
  while (signedParameters.size > SIGNED_KEPT) {
    const oldest = signedParameters.keys().next().value;
    if (oldest === undefined) break;
    signedParameters.delete(oldest);
  }
  const serverNow = Date.parse(response.headers.get('date') ?? '');
  if (!Number.isFinite(serverNow)) return response;
  const skew = serverNow - received;
  const browserExpiresAt = Math.floor((expiresAt * 1000 - skew - EXPIRY_MARGIN_MS) / 1000);
  const forWidget = { ...answer, parameters: { ...params, expiresAt: browserExpiresAt } };
  return new Response(JSON.stringify(forWidget), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

/**
 * The widget's payload (base64 JSON { challenge: { parameters, signature }, solution }) with the
 * parameters our server signed in place of those the widget was given (their expiry in the
 * browser's time). A payload of a challenge we do not know stays as it is.
 */
export function signedToken(payload: string): string {
  try {
    const p = JSON.parse(atob(payload)) as { challenge?: { signature?: unknown } };
    const signature = p?.challenge?.signature;
    const params = typeof signature === 'string' ? signedParameters.get(signature) : undefined;
    if (!params || !p.challenge) return payload;
    return btoa(JSON.stringify({ ...p, challenge: { ...p.challenge, parameters: params } }));
  } catch {
    return payload;
  }
}

/** Solves a challenge with the widget, or joins the solve already running. */
function solve(w: AltchaElement): Promise<string | null> {
  solving ??= w
    .verify()
    .then(
      (r) => (r?.payload ? signedToken(r.payload) : null),
      () => null,
    )
    .finally(() => {
      solving = null;
    });
  return solving;
}

export { BotCheckError };

interface Grecaptcha {
  ready(cb: () => void): void;
  execute(siteKey: string, options: { action: string }): Promise<string>;
}

let recaptchaLoading: Promise<Grecaptcha> | null = null;

function loadRecaptcha(siteKey: string): Promise<Grecaptcha> {
  if (recaptchaLoading) return recaptchaLoading;
  recaptchaLoading = new Promise<Grecaptcha>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = `https://www.google.com/recaptcha/api.js?render=${encodeURIComponent(siteKey)}`;
    script.async = true;
    script.onload = () => {
      const g = (window as unknown as { grecaptcha?: Grecaptcha }).grecaptcha;
      if (!g) reject(new BotCheckError('reCAPTCHA did not load'));
      else g.ready(() => resolve(g));
    };
    script.onerror = () => {
      recaptchaLoading = null;
      reject(new BotCheckError('reCAPTCHA did not load'));
    };
    document.head.appendChild(script);
  });
  return recaptchaLoading;
}

/** A fresh bot-check token for one call. Throws BotCheckError when none can be had. */
export async function getBotToken(action: BotAction, settings: BotCheckSettings): Promise<string> {
  if (settings.botCheckProvider === 'recaptcha') {
    const g = await loadRecaptcha(settings.recaptchaSiteKey);
    return g.execute(settings.recaptchaSiteKey, { action });
  }
  if (readyPayload) {
    const p = readyPayload;
    readyPayload = null;
    return p;
  }
  wakeWidget?.();
  const w = await whenWidget(WIDGET_WAIT_MS);
  if (!w) throw new BotCheckError('The bot check is not on the page');
  const payload = await solve(w);
  readyPayload = null;
  if (!payload) throw new BotCheckError('The bot check was not solved');
  return payload;
}

/**
 * After a call used the token: the widget solves the next challenge at once, so it shows
 * "verified" again instead of an unticked box that looks like a task, and the next search does
 * not wait for the proof of work.
 */
export function resetBotCheck(): void {
  readyPayload = null;
  if (!widget) return;
  widget.reset();
  void solve(widget);
}

/** Our SHA worker for the algorithms the server may ask for (server: botcheck/index.ts). */
function registerAltchaWorkers(): void {
  const algorithms = (globalThis as unknown as { $altcha?: { algorithms: Map<string, () => Worker> } })
    .$altcha?.algorithms;
  for (const name of ['SHA-256', 'SHA-384', 'SHA-512']) algorithms?.set(name, () => new ShaWorker());
}

/** The widget's texts in one language only (the page's): the other is not loaded (issue 14). */
const loadAltchaTexts = (lang: string): Promise<unknown> =>
  lang === 'en' ? import('altcha/i18n/en') : import('altcha/i18n/cs');

type AltchaTexts = {
  get(lang: string): Record<string, string> | undefined;
  set(lang: string, v: object): void;
};

/**
 * The widget says what really happens (issue 27): an expired proof is solved again by itself
 * (no "expired, try again" while sending still works), and a failure says what the page says:
 * the check runs again with the next search or send.
 */
function ownAltchaTexts(lang: string, texts: { expired: string; error: string }): void {
  const i18n = (globalThis as unknown as { $altcha?: { i18n?: AltchaTexts } }).$altcha?.i18n;
  const current = i18n?.get(lang);
  if (i18n && current) i18n.set(lang, { ...current, ...texts });
}

/**
 * The ALTCHA widget (altcha provider only; reCAPTCHA v3 shows no widget). Renders nothing
 * for reCAPTCHA, whose notice the page shows itself. `deferred`: its module (30 kB) loads and
 * its proof of work starts at the user's first input on the page (or a getBotToken call), not
 * while the page loads: on the search step it was the longest task of the load (issue 14).
 */
export function BotCheckWidget({
  settings,
  lang,
  deferred = false,
}: {
  settings: BotCheckSettings;
  lang: string;
  deferred?: boolean;
}) {
  const ref = useRef<HTMLElement>(null);
  const [note, setNote] = useState('');
  const isAltcha = settings.botCheckProvider !== 'recaptcha';
  const { t } = useT();
  const texts = { expired: t('BOTCHECK.EXPIRED'), error: t('BOTCHECK.ERROR') };
  const textsRef = useRef(texts);
  textsRef.current = texts;

  // biome-ignore lint/correctness/useExhaustiveDependencies: the widget loads once; a language switch is the effect below
  useEffect(() => {
    if (!isAltcha) return;
    let cancelled = false;
    const el = ref.current as AltchaElement | null;
    // The web component registers itself on import; loaded only where it is used. Its external
    // build: the stylesheet as a file and the worker above, since the default build injects a
    // <style> element and a blob: worker, which the pages' CSP (no 'unsafe-inline') refuses.
    let started = false;
    const load = () => {
      if (started) return;
      started = true;
      stopWaiting();
      void Promise.all([import('altcha/external'), import('altcha/altcha.css'), loadAltchaTexts(lang)]).then(
        () => {
          registerAltchaWorkers();
          ownAltchaTexts(lang, textsRef.current);
          if (cancelled) return;
          // The challenge's expiry in the browser's time, for the widget's timer (challengeFetch).
          void el?.configure({ fetch: challengeFetch });
          setWidget(el);
          // Solved at once (no auto="onload": one owner of verify()), so the token is usually
          // ready by the time the user searches.
          if (el) void solve(el);
        },
      );
    };
    const stopWaiting = () => {
      for (const type of WAKE_EVENTS) window.removeEventListener(type, load, true);
      if (wakeWidget === load) wakeWidget = null;
    };
    if (deferred) {
      for (const type of WAKE_EVENTS) window.addEventListener(type, load, { capture: true, passive: true });
      wakeWidget = load;
    } else {
      load();
    }
    const onState = (e: Event) => {
      const detail = (e as CustomEvent<{ state?: string; payload?: string }>).detail;
      readyPayload = detail?.state === 'verified' && detail.payload ? signedToken(detail.payload) : null;
    };
    // An expired proof is solved again at once: the token stays ready, as the widget now says.
    const onExpired = () => {
      readyPayload = null;
      if (el && widget === el) {
        el.reset();
        void solve(el);
      }
    };
    el?.addEventListener('statechange', onState);
    el?.addEventListener('expired', onExpired);
    return () => {
      cancelled = true;
      stopWaiting();
      el?.removeEventListener('statechange', onState);
      el?.removeEventListener('expired', onExpired);
      if (widget === el) widget = null;
      readyPayload = null;
    };
  }, [isAltcha]);

  // A language switch loads that language's texts, then has the widget read them again.
  useEffect(() => {
    if (!isAltcha) return;
    void loadAltchaTexts(lang).then(() => {
      ownAltchaTexts(lang, textsRef.current);
      ref.current?.setAttribute('language', lang);
    });
  }, [isAltcha, lang]);

  if (!isAltcha) return null;
  return (
    <div
      className="botcheck"
      data-testid="botcheck"
      // Space on the ticked box would undo the check without a word (the widget's own toggle):
      // it stays ticked, and the status says so (issue 35).
      onKeyDownCapture={(e) => {
        const box = e.nativeEvent.composedPath()[0];
        if (e.key !== ' ' || !(box instanceof HTMLInputElement) || !box.checked) return;
        e.preventDefault();
        setNote(t('BOTCHECK.ALREADY_VERIFIED'));
      }}
      onBlurCapture={() => setNote('')}
    >
      <altcha-widget ref={ref} challenge={ALTCHA_CHALLENGE_URL} language={lang} name="altcha" />
      <p className="visually-hidden" role="status">
        {note}
      </p>
    </div>
  );
}

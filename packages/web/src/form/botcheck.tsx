import type { WidgetMethods } from 'altcha/types';
import { useEffect, useRef } from 'react';
import 'altcha/types/react';

/**
 * The bot check of the search and submit steps (spec section 6: the token travels in the
 * `Recaptcha` header). Provider from the metadata:
 * - altcha: our server's proof of work, solved in the browser by the <altcha-widget> that
 *   <BotCheckWidget> renders (it starts when the user reaches the form, so the token is
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

export class BotCheckError extends Error {}

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
  if (!widget) throw new BotCheckError('The bot check is not on the page');
  const result = await widget.verify();
  readyPayload = null;
  if (!result?.payload) throw new BotCheckError('The bot check was not solved');
  return result.payload;
}

/** After a call used the token: the widget gets ready for the next one (a new challenge). */
export function resetBotCheck(): void {
  readyPayload = null;
  widget?.reset();
}

/**
 * The ALTCHA widget (altcha provider only; reCAPTCHA v3 shows no widget). Renders nothing
 * for reCAPTCHA, whose notice the page shows itself.
 */
export function BotCheckWidget({ settings, lang }: { settings: BotCheckSettings; lang: string }) {
  const ref = useRef<HTMLElement>(null);
  const isAltcha = settings.botCheckProvider !== 'recaptcha';

  useEffect(() => {
    if (!isAltcha) return;
    let cancelled = false;
    // The web component registers itself on import; loaded only where it is used.
    void Promise.all([import('altcha'), import('altcha/i18n/cs'), import('altcha/i18n/en')]).then(() => {
      if (cancelled) return;
      widget = ref.current as AltchaElement | null;
    });
    const el = ref.current;
    const onState = (e: Event) => {
      const detail = (e as CustomEvent<{ state?: string; payload?: string }>).detail;
      readyPayload = detail?.state === 'verified' && detail.payload ? detail.payload : null;
    };
    el?.addEventListener('statechange', onState);
    return () => {
      cancelled = true;
      el?.removeEventListener('statechange', onState);
      if (widget === el) widget = null;
      readyPayload = null;
    };
  }, [isAltcha]);

  if (!isAltcha) return null;
  return (
    <div className="botcheck" data-testid="botcheck">
      <altcha-widget ref={ref} challenge={ALTCHA_CHALLENGE_URL} auto="onload" language={lang} name="altcha" />
    </div>
  );
}

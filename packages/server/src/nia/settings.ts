import type { Config } from '../config/config.js';
import type { FromPage } from './sessions.js';

/** Where the local NIA-like provider is mounted. */
export const TEST_PROVIDER_PATH = '/nia-test';

/** eIDAS levels of assurance, as NIA names them. */
export const LOA = {
  low: 'http://eidas.europa.eu/LoA/low',
  substantial: 'http://eidas.europa.eu/LoA/substantial',
  high: 'http://eidas.europa.eu/LoA/high',
} as const;
const LOA_ORDER: string[] = [LOA.low, LOA.substantial, LOA.high];

/** Whether the acr NIA reports is at least the level asked for. */
export function acrSatisfies(acr: unknown, wanted: string): boolean {
  if (typeof acr !== 'string') return false;
  const have = LOA_ORDER.indexOf(acr);
  const need = LOA_ORDER.indexOf(wanted);
  return need === -1 ? acr === wanted : have >= need;
}

export const testIssuer = (config: Config): string => `${config.publicUrl}${TEST_PROVIDER_PATH}`;

/** The issuer the client talks to: ROS_NIA_ISSUER, else the local provider. */
export const issuerOf = (config: Config): string => config.niaIssuer || testIssuer(config);

/** The redirect URI registered with NIA. */
export const callbackUrl = (config: Config): string => `${config.publicUrl}/api/ros/sso-callback`;

const FORM_PATHS: Record<FromPage, { path: string; en: boolean }> = {
  form: { path: '/form', en: false },
  'form-en': { path: '/form', en: true },
  duplicate: { path: '/duplikat/form', en: false },
  'duplicate-en': { path: '/duplicate/form', en: true },
};

/** Where the browser goes after the sign-in: the form with eid=nia, or with sso=failed. */
export function formTarget(config: Config, from: FromPage, ok: boolean): string {
  const { path, en } = FORM_PATHS[from];
  const q = new URLSearchParams(ok ? { eid: 'nia' } : { sso: 'failed' });
  if (en) q.set('lang', 'en');
  return `${config.publicUrl}${path}?${q.toString()}`;
}

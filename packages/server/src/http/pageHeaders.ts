import type { FastifyHelmetOptions } from '@fastify/helmet';
import type { Config } from '../config/config.js';

/** reCAPTCHA v3's hosts: allowed only when ROS_BOT_CHECK=recaptcha. */
const RECAPTCHA = ['https://www.google.com/recaptcha/', 'https://www.gstatic.com/recaptcha/'];

/**
 * The content security policy of the pages (the API has its own, http/apiHeaders.ts). Nothing inline:
 * no 'unsafe-inline' for scripts or styles (the ALTCHA widget is loaded in its external build with
 * its stylesheet as a file, and React's style props go through the CSSOM, which CSP allows).
 * Third-party hosts only for the configured bot check. No plugins, no <base>, no framing.
 */
export function contentSecurityPolicy(config: Pick<Config, 'botCheckProvider'>): Record<string, string[]> {
  const recaptcha = config.botCheckProvider === 'recaptcha' ? RECAPTCHA : [];
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'", ...recaptcha],
    scriptSrcAttr: ["'none'"],
    styleSrc: ["'self'"],
    imgSrc: ["'self'", 'data:'],
    fontSrc: ["'self'", 'data:'],
    // ALTCHA's proof of work runs in a worker script served from our origin.
    workerSrc: ["'self'"],
    connectSrc: ["'self'", ...recaptcha],
    frameSrc: recaptcha.length > 0 ? ["'self'", RECAPTCHA[0] as string] : ["'none'"],
    formAction: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'none'"],
    frameAncestors: ["'none'"],
  };
}

/**
 * helmet's options for the pages. X-Frame-Options says what frame-ancestors 'none' says (DENY, not
 * helmet's SAMEORIGIN), for browsers that do not read CSP's frame-ancestors.
 */
export function pageHeaders(config: Pick<Config, 'botCheckProvider'>): FastifyHelmetOptions {
  return {
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(config) },
    frameguard: { action: 'deny' },
  };
}

/** Powerful browser features the portal never uses, switched off for it and anything it embeds. */
export const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'camera=()',
  'display-capture=()',
  'geolocation=()',
  'gyroscope=()',
  'magnetometer=()',
  'microphone=()',
  'payment=()',
  'usb=()',
].join(', ');

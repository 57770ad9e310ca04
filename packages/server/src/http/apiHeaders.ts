/**
 * The fixed security headers of every API answer. JSON answers are never rendered as pages, so
 * these few replace helmet's full set (which the pages get): no sniffing, no referrer, same-origin
 * reads only, nothing may load or frame it, HTTPS only.
 */
export const API_SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
} as const;

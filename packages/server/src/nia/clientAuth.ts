import type * as oidc from 'openid-client';

/**
 * HTTP Basic client authentication (`client_secret_basic`) encoded exactly as RFC 6749
 * section 2.3.1 asks: client id and secret each encoded with application/x-www-form-urlencoded
 * (Appendix B), then joined by ":" and base64-encoded. Letters, digits and `-._~*` stay as they
 * are, a space becomes "+", every other octet of the UTF-8 form is "%XX".
 *
 * openid-client (oauth4webapi) percent-encodes even the unreserved characters (`-` as `%2D`), so
 * a provider that reads the credentials literally (glewlwyd, oauth2-mock-server) sees another
 * client id than the one it issued — NIA's client ids are GUIDs, full of hyphens. Encoded this
 * way both kinds read it: a provider that undoes the form-encoding, and one that does not, for
 * any id made of letters, digits and `-._~` (docs/nia.md).
 */

const KEPT = /[A-Za-z0-9\-._~*]/;

/** One value in application/x-www-form-urlencoded form (RFC 6749 Appendix B). */
export function formEncode(value: string): string {
  let out = '';
  for (const char of value) {
    if (KEPT.test(char)) out += char;
    else if (char === ' ') out += '+';
    else
      for (const byte of new TextEncoder().encode(char))
        out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** The Authorization header's value for a client id and secret. */
export function basicCredentials(clientId: string, secret: string): string {
  return `Basic ${Buffer.from(`${formEncode(clientId)}:${formEncode(secret)}`, 'ascii').toString('base64')}`;
}

/** `client_secret_basic` for openid-client, in place of its own ClientSecretBasic. */
export function clientSecretBasic(secret: string): oidc.ClientAuth {
  return (_server, client, _body, headers) => {
    headers.set('authorization', basicCredentials(client.client_id, secret));
  };
}

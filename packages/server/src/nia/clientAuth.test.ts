import * as oidc from 'openid-client';
import { describe, expect, it } from 'vitest';
import { basicCredentials, clientSecretBasic, formEncode } from './clientAuth.js';

const decodeBasic = (header: string) =>
  Buffer.from(header.replace(/^Basic /, ''), 'base64').toString('ascii');

describe('client_secret_basic credentials (RFC 6749 section 2.3.1, Appendix B)', () => {
  it("encodes Appendix B's example exactly", () => {
    expect(formEncode(' %&+£€')).toBe('+%25%26%2B%C2%A3%E2%82%AC');
  });

  it('leaves letters, digits and -._~* as they are, a GUID-shaped id unchanged', () => {
    const guid = '3f2504e0-4f89-11d3-9a0c-0305e82c3301';
    expect(formEncode(guid)).toBe(guid);
    expect(formEncode('AZaz09-._~*')).toBe('AZaz09-._~*');
    expect(decodeBasic(basicCredentials(guid, 'se-cret.1'))).toBe(`${guid}:se-cret.1`);
  });

  it('encodes the separator and the form-encoding specials, so a decoding provider gets them back', () => {
    const encoded = decodeBasic(basicCredentials('a:b', 'x+y=z&%'));
    expect(encoded).toBe('a%3Ab:x%2By%3Dz%26%25');
    const [id = '', secret = ''] = encoded.split(':');
    const read = (v: string) => new URLSearchParams(`v=${v}`).get('v');
    expect([read(id), read(secret)]).toEqual(['a:b', 'x+y=z&%']);
  });

  it('differs from openid-client’s own ClientSecretBasic, which sends "-" as "%2D"', () => {
    const headers = (auth: oidc.ClientAuth) => {
      const h = new Headers();
      auth({ issuer: 'https://nia.example' }, { client_id: 'ros-interop-client' }, new URLSearchParams(), h);
      return decodeBasic(h.get('authorization') ?? '');
    };
    expect(headers(oidc.ClientSecretBasic('s'))).toBe('ros%2Dinterop%2Dclient:s');
    expect(headers(clientSecretBasic('s'))).toBe('ros-interop-client:s');
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';

// The proof-of-work worker is a Vite ?worker import; not needed here.
vi.mock('altcha/workers/sha?worker', () => ({ default: class {} }));

const { challengeFetch, signedToken } = await import('./botcheck');

/** A challenge as our server signs it (packages/server/src/botcheck), expiresAt in seconds. */
function challenge(expiresAt: number, signature = `sig-${Math.random()}`) {
  return {
    parameters: {
      algorithm: 'SHA-256',
      cost: 1,
      expiresAt,
      keyLength: 32,
      keyPrefix: 'ab12',
      keySignature: 'cd34',
      nonce: '00ff',
      salt: 'ff00',
    },
    signature,
  };
}

const answer =
  (body: unknown, headers: Record<string, string> = {}, status = 200) =>
  async () =>
    new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json', ...headers },
    });

/** The widget's payload of a solved challenge: its parameters as it got them. */
const widgetPayload = (c: { parameters: unknown; signature: string }) =>
  btoa(
    JSON.stringify({
      challenge: { parameters: c.parameters, signature: c.signature },
      solution: { counter: 7, derivedKey: 'ab12ef', time: 3 },
    }),
  );

describe('bot check with a browser clock far off', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  for (const [clock, offsetMs] of [
    ['ahead', 2 * 3600_000],
    ['behind', -2 * 3600_000],
    ['right', 0],
  ] as const) {
    it(`gives the widget the expiry in the browser's time (clock ${clock}) and sends the signed parameters`, async () => {
      const serverNow = Date.UTC(2026, 11, 1, 12, 0, 0);
      vi.useFakeTimers({ now: serverNow + offsetMs, toFake: ['Date'] });
      const signed = challenge(serverNow / 1000 + 600);
      const res = await challengeFetch(
        '/api/ros/altcha-challenge',
        undefined,
        answer(signed, {
          date: new Date(serverNow).toUTCString(),
          'x-altcha-config': '{}',
        }),
      );
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('/json');
      expect(res.headers.get('x-altcha-config')).toBe('{}');
      const given = (await res.json()) as ReturnType<typeof challenge>;
      // The widget's timer: expiresAt * 1000 - Date.now() is the challenge's 600 s (less the margin).
      const left = given.parameters.expiresAt * 1000 - Date.now();
      expect(left).toBeGreaterThan(590_000);
      expect(left).toBeLessThanOrEqual(600_000);
      // Everything else as signed.
      expect({ ...given.parameters, expiresAt: signed.parameters.expiresAt }).toEqual(signed.parameters);
      expect(given.signature).toBe(signed.signature);
      // The token sent back: the server's parameters, untouched; the solution as the widget found it.
      const token = JSON.parse(atob(signedToken(widgetPayload(given)))) as {
        challenge: typeof signed;
        solution: unknown;
      };
      expect(token.challenge).toEqual(signed);
      expect(token.solution).toEqual({ counter: 7, derivedKey: 'ab12ef', time: 3 });
    });
  }

  it('leaves an answer without a Date header, an error and an unknown payload as they are', async () => {
    const signed = challenge(Math.floor(Date.now() / 1000) + 600);
    const plain = await challengeFetch('/x', undefined, answer(signed));
    expect(await plain.json()).toEqual(signed);
    // Its parameters are unchanged anyway: the token is the widget's.
    const payload = widgetPayload(signed);
    expect(JSON.parse(atob(signedToken(payload)))).toEqual(JSON.parse(atob(payload)));

    const failed = await challengeFetch(
      '/x',
      undefined,
      answer({ error: 'UNAVAILABLE' }, { date: new Date().toUTCString() }, 503),
    );
    expect(failed.status).toBe(503);
    expect(await failed.json()).toEqual({ error: 'UNAVAILABLE' });

    const unknown = widgetPayload(challenge(1, 'never-fetched'));
    expect(signedToken(unknown)).toBe(unknown);
    expect(signedToken('not base64 JSON!')).toBe('not base64 JSON!');
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubFetch } from '../test/render';
import { ApiRequestError, apiGet, apiPost } from './client';

describe('api client', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('GETs JSON relative to /api/ros', async () => {
    const fetchMock = stubFetch({ '/api/ros/countries': { status: 200, body: [{ code: 'CZ' }] } });
    await expect(apiGet('/countries')).resolves.toEqual([{ code: 'CZ' }]);
    expect(fetchMock).toHaveBeenCalledWith('/api/ros/countries', expect.objectContaining({ method: 'GET' }));
  });

  it('POSTs a JSON body with extra headers; path "" posts to /api/ros', async () => {
    const fetchMock = stubFetch({ '/api/ros': { status: 200, body: { text: 'ok', id: 'abc' } } });
    await expect(apiPost('', { a: 1 }, { Recaptcha: 'token' })).resolves.toEqual({ text: 'ok', id: 'abc' });
    const init = (fetchMock.mock.calls[0] as unknown[] | undefined)?.[1] as RequestInit;
    expect(init.body).toBe('{"a":1}');
    expect(init.headers).toMatchObject({ 'Content-Type': 'application/json', Recaptcha: 'token' });
  });

  it('throws ApiRequestError with the server code, logs it and rethrows', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    stubFetch({
      '/api/ros/search': { status: 404, body: { error: { code: 'PERSON_NOT_FOUND', message: 'x' } } },
    });
    const error = await apiPost('/search', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiRequestError);
    expect(error).toMatchObject({ status: 404, code: 'PERSON_NOT_FOUND' });
    expect(log).toHaveBeenCalledOnce();
  });

  it('reports a network failure as status 0', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    stubFetch({ '/api/ros/metadata': new TypeError('Failed to fetch') });
    await expect(apiGet('/metadata')).rejects.toMatchObject({ status: 0, code: 'NETWORK_ERROR' });
  });
});

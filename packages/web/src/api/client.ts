/** Base path of the JSON API; every call in the app goes through this module. */
export const API_BASE = '/api/ros';

/**
 * A failed API call. `status` is the HTTP status (0 when the network failed or the
 * answer was not JSON), `code` the server's machine-readable error code when it sent one.
 */
export class ApiRequestError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fields: Record<string, unknown> | undefined;

  constructor(status: number, code: string, message: string, fields?: Record<string, unknown>) {
    super(message);
    this.name = 'ApiRequestError';
    this.status = status;
    this.code = code;
    this.fields = fields;
  }
}

interface ErrorBody {
  error?: { code?: unknown; message?: unknown; fields?: unknown };
}

function apiUrl(path: string): string {
  if (path === '' || path === '/') return API_BASE;
  return `${API_BASE}${path.startsWith('/') ? path : `/${path}`}`;
}

async function request<T>(method: 'GET' | 'POST', path: string, init: RequestInit): Promise<T> {
  const url = apiUrl(path);
  try {
    let response: Response;
    try {
      response = await fetch(url, { ...init, method, credentials: 'same-origin' });
    } catch (cause) {
      throw new ApiRequestError(0, 'NETWORK_ERROR', cause instanceof Error ? cause.message : 'Network error');
    }
    const text = await response.text();
    let body: unknown;
    if (text !== '') {
      try {
        body = JSON.parse(text);
      } catch {
        throw new ApiRequestError(
          response.ok ? 0 : response.status,
          'INVALID_RESPONSE',
          'Answer is not JSON',
        );
      }
    }
    if (!response.ok) {
      const error = (body as ErrorBody | undefined)?.error;
      throw new ApiRequestError(
        response.status,
        typeof error?.code === 'string' ? error.code : `HTTP_${response.status}`,
        typeof error?.message === 'string' ? error.message : response.statusText,
        error?.fields && typeof error.fields === 'object'
          ? (error.fields as Record<string, unknown>)
          : undefined,
      );
    }
    return body as T;
  } catch (error) {
    // The spec: each call logs its error and rethrows it. Only method, path and code are logged,
    // never the body (it may hold personal data).
    const e = error instanceof ApiRequestError ? error : new ApiRequestError(0, 'UNKNOWN', String(error));
    console.error(`API ${method} ${url} failed: ${e.status} ${e.code}`);
    throw e;
  }
}

/** GET `/api/ros{path}` and parse the JSON answer. */
export function apiGet<T>(path: string): Promise<T> {
  return request<T>('GET', path, { headers: { Accept: 'application/json' } });
}

/** POST a JSON body to `/api/ros{path}` (path '' posts to `/api/ros` itself). */
export function apiPost<T>(path: string, body: unknown, headers?: Record<string, string>): Promise<T> {
  return request<T>('POST', path, {
    headers: { Accept: 'application/json', 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

import type { ApiErrorBody, ApiErrorCode } from '@ros/domain';
import { API_SECURITY_HEADERS as SECURITY_HEADERS_FOR_RAW } from './http/apiHeaders.js';

export type { ApiErrorBody };

/**
 * Every error answer of the API has one shape: { error: { code, message, fields? } }
 * (ApiErrorBody, packages/domain/src/api/errors.ts). `code` is one of the contract's codes;
 * `message` is for developers, never shown to users and never holds personal data.
 */
export class ApiError extends Error {
  constructor(
    public readonly statusCode: number,
    public readonly code: ApiErrorCode,
    message: string,
    public readonly fields?: Array<{ path: string; message: string }>,
    public readonly headers?: Record<string, string>,
  ) {
    // A client's error (4xx) is answered, never logged: no stack trace is captured for it. Under
    // a flood of refused calls (429) the capture was a quarter of the server's work (bench/README.md
    // "A flood of each public GET"); a 5xx keeps its stack for the log.
    const limit = Error.stackTraceLimit;
    if (statusCode < 500) Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
  }
}

export const notFound = (code: ApiErrorCode = 'NOT_FOUND', message = 'Not found') =>
  new ApiError(404, code, message);

/** The body of an ApiError's answer. */
export function apiErrorBody(err: ApiError): ApiErrorBody {
  return { error: { code: err.code, message: err.message, fields: err.fields } };
}

/**
 * The stable code and fixed message of an error that no route made: Fastify's own (body parsing,
 * schema validation, a URL it cannot decode, a plugin's 429) and the unexpected (500). Fixed
 * messages: Fastify's would echo parts of the request (a URL, a media type). The codes are listed
 * in docs/errors.md.
 */
const FRAMEWORK_CODES: Record<string, [number, ApiErrorCode, string]> = {
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'INVALID_JSON', 'The body is not valid JSON'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'INVALID_JSON', 'The body is empty but says it is JSON'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'PAYLOAD_TOO_LARGE', 'The body is too large'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'UNSUPPORTED_MEDIA_TYPE', 'Unsupported media type'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'BAD_REQUEST', 'Content-Length does not match the body'],
  FST_ERR_BAD_URL: [400, 'BAD_URL', 'The URL cannot be decoded'],
  FST_ERR_MAX_PARAM_LENGTH: [414, 'URI_TOO_LONG', 'A path segment is too long'],
};

const BY_STATUS: Record<number, [ApiErrorCode, string]> = {
  400: ['BAD_REQUEST', 'Bad request'],
  404: ['NOT_FOUND', 'Not found'],
  408: ['REQUEST_TIMEOUT', 'Request timeout'],
  413: ['PAYLOAD_TOO_LARGE', 'The body is too large'],
  415: ['UNSUPPORTED_MEDIA_TYPE', 'Unsupported media type'],
  429: ['RATE_LIMITED', 'Too many requests: try again later'],
  431: ['HEADERS_TOO_LARGE', 'Request headers too large'],
  503: ['UNAVAILABLE', 'Service unavailable: try again later'],
};

export function errorAnswer(err: {
  statusCode?: number;
  code?: string;
  validation?: unknown;
  message?: string;
}): { status: number; body: ApiErrorBody } {
  const known = err.code ? FRAMEWORK_CODES[err.code] : undefined;
  if (known) return { status: known[0], body: { error: { code: known[1], message: known[2] } } };
  const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 600 ? err.statusCode : 500;
  if (status === 400 && err.validation) {
    // A route's JSON schema refused the request: the message names the field (no values).
    return {
      status,
      body: { error: { code: 'INVALID_REQUEST', message: err.message ?? 'Invalid request' } },
    };
  }
  const [code, message]: [ApiErrorCode, string] =
    BY_STATUS[status] ??
    (status >= 500 ? ['INTERNAL_ERROR', 'Internal server error'] : ['BAD_REQUEST', 'Bad request']);
  return { status, body: { error: { code, message } } };
}

/**
 * A whole HTTP response for an error Node's parser raised before any request existed (Fastify's
 * clientErrorHandler): the one error shape and the API's security headers; the connection closes.
 */
export function rawErrorResponse(parserCode: string | undefined): string {
  const [status, code, message, reason] =
    parserCode === 'HPE_HEADER_OVERFLOW'
      ? ([431, 'HEADERS_TOO_LARGE', 'Request headers too large', 'Request Header Fields Too Large'] as const)
      : parserCode === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? ([408, 'REQUEST_TIMEOUT', 'Request timeout', 'Request Timeout'] as const)
        : ([400, 'BAD_REQUEST', 'The request cannot be parsed', 'Bad Request'] as const);
  const body = JSON.stringify({ error: { code, message } } satisfies ApiErrorBody);
  const headers = Object.entries(SECURITY_HEADERS_FOR_RAW)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  return `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${headers}connection: close\r\n\r\n${body}`;
}

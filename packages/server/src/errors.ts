/**
 * Every error answer of the API has one shape: { error: { code, message, fields? } }.
 * `code` is machine-readable and stable; `message` is for developers, never shown to users
 * and never holds personal data.
 */
export interface ApiErrorBody {
  error: { code: string; message: string; fields?: Array<{ path: string; message: string }> };
}

export class ApiError extends Error {
  constructor(
    public readonly statusCode: number,
    public readonly code: string,
    message: string,
    public readonly fields?: Array<{ path: string; message: string }>,
    public readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const notFound = (code = 'NOT_FOUND', message = 'Not found') => new ApiError(404, code, message);
export const badRequest = (
  code: string,
  message: string,
  fields?: Array<{ path: string; message: string }>,
) => new ApiError(400, code, message, fields);

/** The body of an ApiError's answer. */
export function apiErrorBody(err: ApiError): ApiErrorBody {
  return { error: { code: err.code, message: err.message, fields: err.fields } };
}

import type { ApiErrorCode } from '../../contract/errors.js';

// The one error type lives below every layer so that adapters, which must not know the HTTP layer, throw it
// too; http/errors.ts renders it.

export const errorCodes = {
  BAD_REQUEST: { status: 400, title: 'Bad Request' },
  VALIDATION_FAILED: { status: 400, title: 'Validation Failed' },
  UNAUTHENTICATED: { status: 401, title: 'Authentication Required' },
  FORBIDDEN: { status: 403, title: 'Access Denied' },
  CSRF_INVALID: { status: 403, title: 'CSRF Token Invalid' },
  NOT_FOUND: { status: 404, title: 'Not Found' },
  METHOD_NOT_ALLOWED: { status: 405, title: 'Method Not Allowed' },
  REQUEST_TIMEOUT: { status: 408, title: 'Request Timeout' },
  ALREADY_EXISTS: { status: 409, title: 'Already Exists' },
  CONFLICT: { status: 409, title: 'Conflict' },
  PAYLOAD_TOO_LARGE: { status: 413, title: 'Payload Too Large' },
  URI_TOO_LONG: { status: 414, title: 'URI Too Long' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, title: 'Unsupported Media Type' },
  RATE_LIMITED: { status: 429, title: 'Too Many Requests' },
  HEADERS_TOO_LARGE: { status: 431, title: 'Request Header Fields Too Large' },
  INTERNAL: { status: 500, title: 'Server Error' },
  UNAVAILABLE: { status: 503, title: 'Service Unavailable' },
} as const satisfies Record<ApiErrorCode, { status: number; title: string }>;

export type ErrorCode = ApiErrorCode;

/** What an error tells its caller, without the Error: for answers on a hot path, where capturing a stack costs. */
export type ErrorFacts = Pick<AppError, 'code' | 'status' | 'title' | 'message' | 'suggestion' | 'headers'>;

/** The one error type: services throw it, the handler renders `{error, message, suggestion?, status, code}`. */
export class AppError extends Error {
  readonly status: number;
  readonly title: string;
  readonly suggestion?: string;
  readonly headers?: Record<string, string>;

  constructor(
    readonly code: ErrorCode,
    message: string,
    options: { title?: string; suggestion?: string; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.status = errorCodes[code].status;
    this.title = options.title ?? errorCodes[code].title;
    this.suggestion = options.suggestion;
    this.headers = options.headers;
  }
}

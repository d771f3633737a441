import type { ApiErrorCode } from '@contract/errors';

// The error catalogue of spec seller-app §8: every non-OK response becomes an ApiRequestError.

const CSRF_INVALID: ApiErrorCode = 'CSRF_INVALID';

type CatalogueEntry = { title: string; message: string };

const catalogue: Record<number, CatalogueEntry> = {
  401: { title: 'Authentication Required', message: 'Please log in to access this resource.' },
  403: { title: 'Access Denied', message: 'You do not have permission to access this resource.' },
  404: { title: 'Not Found', message: 'The requested resource was not found.' },
  429: { title: 'Too Many Requests', message: 'Please wait a moment before trying again.' },
};
const serverError: CatalogueEntry = {
  title: 'Server Error',
  message: 'A server error occurred. Please try again later.',
};
const unexpected: CatalogueEntry = { title: 'An unexpected error occurred', message: '' };

/** Title and message the app shows for a status when the answer carries no JSON error of its own. */
export function catalogueEntry(status: number): CatalogueEntry {
  if (catalogue[status]) return catalogue[status];
  if (status >= 500 && status <= 599) return serverError;
  return unexpected;
}

export class ApiRequestError extends Error {
  readonly error: string;
  readonly status: number;
  /** The server's stable machine code (`CSRF_INVALID`, `NOT_FOUND`, ...); branch on it, never on the message. */
  readonly code?: string;
  readonly suggestion?: string;
  /** From a Retry-After header, when the server sent one. */
  readonly retryAfterMs?: number;

  constructor(fields: {
    error: string;
    message: string;
    status: number;
    code?: string;
    suggestion?: string;
    retryAfterMs?: number;
  }) {
    super(fields.message || fields.error);
    this.name = 'ApiRequestError';
    this.error = fields.error;
    this.status = fields.status;
    this.code = fields.code;
    this.suggestion = fields.suggestion;
    this.retryAfterMs = fields.retryAfterMs;
  }
}

export function isApiRequestError(error: unknown): error is ApiRequestError {
  return error instanceof ApiRequestError;
}

function parseJsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const asText = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() ? value : undefined);

/** A proxy's HTML error page is no message for a person; plain text from the server is. */
const looksLikeHtml = (text: string) => /^\s*</.test(text);

/**
 * Seconds or an HTTP date, as RFC 9110 allows; undefined when absent or unreadable.
 * `now` is injectable so that the date form can be tested.
 */
export function parseRetryAfter(header: string | null | undefined, now: number = Date.now()): number | undefined {
  if (!header) return undefined;
  const trimmed = header.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** Builds the error for a non-OK answer from its status, body text and Retry-After header. */
export function toApiRequestError(status: number, bodyText: string, retryAfter?: string | null): ApiRequestError {
  const defaults = catalogueEntry(status);
  const json = parseJsonObject(bodyText);
  const retryAfterMs = parseRetryAfter(retryAfter);
  if (json) {
    const error = asText(json.error) ?? defaults.title;
    return new ApiRequestError({
      error,
      message: asText(json.message) ?? asText(json.error) ?? defaults.message,
      suggestion: asText(json.suggestion),
      status,
      code: asText(json.code),
      retryAfterMs,
    });
  }
  const raw = bodyText.trim();
  const message = raw && !looksLikeHtml(raw) ? raw : defaults.message;
  return new ApiRequestError({ error: defaults.title, message, status, retryAfterMs });
}

/** Whether the server refused the request for its CSRF token (missing, stale or from another session). */
export function isCsrfRefusal(error: ApiRequestError): boolean {
  return error.status === 403 && error.code === CSRF_INVALID;
}

/** Network failures (server down, offline) surface as this, so callers see one error type. */
export function networkError(cause: unknown): ApiRequestError {
  const error = new ApiRequestError({
    error: 'Network Error',
    message: 'Could not reach the server. Check your connection and try again.',
    status: 0,
  });
  error.cause = cause;
  return error;
}

/** The message to show for any error: the server's message, else the given fallback. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiRequestError) return error.message || fallback;
  if (error instanceof Error && error.message) return error.message;
  return fallback;
}

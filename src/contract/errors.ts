import { z } from 'zod';

/**
 * The stable machine codes of error answers: clients branch on `code`, never on the wording of `message`.
 * Additive: a new code may appear, an existing one keeps its meaning.
 */
export const apiErrorCodes = [
  'BAD_REQUEST',
  'VALIDATION_FAILED',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'CSRF_INVALID',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'REQUEST_TIMEOUT',
  'ALREADY_EXISTS',
  'CONFLICT',
  'PAYLOAD_TOO_LARGE',
  'URI_TOO_LONG',
  'UNSUPPORTED_MEDIA_TYPE',
  'RATE_LIMITED',
  'HEADERS_TOO_LARGE',
  'INTERNAL',
  'UNAVAILABLE',
] as const;
export type ApiErrorCode = (typeof apiErrorCodes)[number];

/** Every non-2xx answer under /api. */
export const apiErrorSchema = z.object({
  error: z.string(),
  message: z.string(),
  suggestion: z.string().optional(),
  status: z.number().int(),
  code: z.enum(apiErrorCodes),
  /** The request's X-Request-Id, to quote to support: the server's log line of the request has it. */
  requestId: z.string().optional(),
});
export type ApiError = z.infer<typeof apiErrorSchema>;

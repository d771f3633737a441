import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { findPgError, pgErrorCode } from '../db/pg-errors.js';
import { AppError, type ErrorCode, type ErrorFacts, errorCodes } from '../lib/app-error.js';

export { AppError, type ErrorCode } from '../lib/app-error.js';

export type ErrorBody = { error: string; message: string; suggestion?: string; status: number; code: ErrorCode };

export function errorBody(error: ErrorFacts): ErrorBody {
  return {
    error: error.title,
    message: error.message,
    ...(error.suggestion ? { suggestion: error.suggestion } : {}),
    status: error.status,
    code: error.code,
  };
}

/** The spec's catalogue text for a 404 (seller-app §8). */
const notFoundMessage = 'The requested resource was not found.';

export const internalError = () => new AppError('INTERNAL', 'A server error occurred. Please try again later.');

const pgErrorCodes: Record<string, { code: ErrorCode; message: string }> = {
  [pgErrorCode.uniqueViolation]: { code: 'ALREADY_EXISTS', message: 'A record with these details already exists.' },
  [pgErrorCode.foreignKeyViolation]: {
    code: 'CONFLICT',
    message: 'This record refers to, or is referred to by, another that does not allow it.',
  },
};

// Framework errors carry only a status: the first code with that status names them (BAD_REQUEST for a 400).
const codeByStatus = new Map<number, ErrorCode>();
for (const [code, { status }] of Object.entries(errorCodes) as [ErrorCode, { status: number }][]) {
  if (!codeByStatus.has(status)) codeByStatus.set(status, code);
}

const frameworkSuggestions: Partial<Record<ErrorCode, string>> = {
  UNSUPPORTED_MEDIA_TYPE: 'Send the body as application/json.',
  PAYLOAD_TOO_LARGE: 'Send a smaller request body.',
};

/** Translates database and framework errors by code, never by message text. */
export function toAppError(error: unknown): AppError | undefined {
  if (error instanceof AppError) return error;
  const candidate = error as Partial<FastifyError> & { code?: string; cause?: unknown };
  if (hasZodFastifySchemaValidationErrors(error)) {
    // A path whose id is malformed names nothing, as one whose id is unknown: both are 404, never 400 or 500.
    if (error.validationContext === 'params') return new AppError('NOT_FOUND', notFoundMessage);
    const fields = error.validation.map((issue) => {
      const where = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
      return `${where || error.validationContext || 'body'}: ${issue.message}`;
    });
    return new AppError('VALIDATION_FAILED', `Invalid request: ${fields.join('; ')}`, {
      suggestion: 'Check the listed fields and try again.',
    });
  }
  const pgCode = findPgError(error)?.code;
  const pgError = pgCode ? pgErrorCodes[pgCode] : undefined;
  if (pgError) return new AppError(pgError.code, pgError.message);
  if (typeof candidate.statusCode === 'number' && candidate.statusCode >= 400 && candidate.statusCode < 500) {
    const code = codeByStatus.get(candidate.statusCode) ?? 'BAD_REQUEST';
    return new AppError(code, candidate.message || errorCodes[code].title, { suggestion: frameworkSuggestions[code] });
  }
  return undefined;
}

/** Renders any error in the error shape; what is not a known client error is logged and answered as a plain 500. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    const appError = toAppError(error);
    if (!appError) {
      request.log.error({ err: error }, 'unhandled error');
      return reply.status(500).send(errorBody(internalError()));
    }
    if (appError.headers) reply.headers(appError.headers);
    return reply.status(appError.status).send(errorBody(appError));
  });
}

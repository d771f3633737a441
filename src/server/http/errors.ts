import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';

const errorCodes = {
  BAD_REQUEST: { status: 400, title: 'Bad Request' },
  VALIDATION_FAILED: { status: 400, title: 'Validation Failed' },
  UNAUTHENTICATED: { status: 401, title: 'Authentication Required' },
  FORBIDDEN: { status: 403, title: 'Access Denied' },
  CSRF_INVALID: { status: 403, title: 'CSRF Token Invalid' },
  NOT_FOUND: { status: 404, title: 'Not Found' },
  ALREADY_EXISTS: { status: 409, title: 'Already Exists' },
  CONFLICT: { status: 409, title: 'Conflict' },
  PAYLOAD_TOO_LARGE: { status: 413, title: 'Payload Too Large' },
  RATE_LIMITED: { status: 429, title: 'Too Many Requests' },
  INTERNAL: { status: 500, title: 'Server Error' },
  UNAVAILABLE: { status: 503, title: 'Service Unavailable' },
} as const;

export type ErrorCode = keyof typeof errorCodes;

/** The one error type: services throw it, the handler renders `{error, message, suggestion?, status}`. */
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

export type ErrorBody = { error: string; message: string; suggestion?: string; status: number };

export function errorBody(error: AppError): ErrorBody {
  return {
    error: error.title,
    message: error.message,
    ...(error.suggestion ? { suggestion: error.suggestion } : {}),
    status: error.status,
  };
}

const pgErrorCodes: Record<string, ErrorCode> = { '23505': 'ALREADY_EXISTS', '23503': 'CONFLICT' };

/** Translates database and framework errors by code, never by message text. */
export function toAppError(error: unknown): AppError | undefined {
  if (error instanceof AppError) return error;
  const candidate = error as Partial<FastifyError> & { code?: string; cause?: unknown };
  if (hasZodFastifySchemaValidationErrors(error)) {
    const fields = error.validation.map((issue) => {
      const where = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
      return `${where || error.validationContext || 'body'}: ${issue.message}`;
    });
    return new AppError('VALIDATION_FAILED', `Invalid request: ${fields.join('; ')}`, {
      suggestion: 'Check the listed fields and try again.',
    });
  }
  const pgCode = candidate.code ?? (candidate.cause as { code?: string } | undefined)?.code;
  if (pgCode && pgErrorCodes[pgCode]) {
    return new AppError(pgErrorCodes[pgCode], 'A record with these details already exists.');
  }
  if (typeof candidate.statusCode === 'number' && candidate.statusCode >= 400 && candidate.statusCode < 500) {
    const code = (Object.keys(errorCodes) as ErrorCode[]).find(
      (key) => errorCodes[key].status === candidate.statusCode,
    );
    return new AppError(code ?? 'BAD_REQUEST', candidate.message ?? 'Bad request');
  }
  return undefined;
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    const appError = toAppError(error);
    if (!appError) {
      request.log.error({ err: error }, 'unhandled error');
      const internal = new AppError('INTERNAL', 'A server error occurred. Please try again later.');
      return reply.status(500).send(errorBody(internal));
    }
    if (appError.headers) reply.headers(appError.headers);
    return reply.status(appError.status).send(errorBody(appError));
  });
}

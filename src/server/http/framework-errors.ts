import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, errorBody, internalError, toAppError } from './errors.js';

// Fastify answers a few failures before any route or error handler exists for the request: a URL it cannot decode,
// an overlong path parameter (the router's `frameworkErrors`), and requests Node's HTTP parser refuses (the server's
// `clientError`). By default each writes a body of its own shape; these answer the error shape like everything else.

/** Fastify's `frameworkErrors` option: the router's refusals, rendered in the error shape. */
export function renderFrameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const appError = toAppError(error) ?? internalError();
  reply.status(appError.status).send(errorBody(appError));
}

function clientErrorFor(code: string | undefined): AppError {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return new AppError('REQUEST_TIMEOUT', 'The request took too long to arrive.');
  }
  if (code === 'HPE_HEADER_OVERFLOW') {
    return new AppError('HEADERS_TOO_LARGE', 'The request line or headers are too large.', {
      suggestion: 'Send a shorter URL and fewer or smaller headers.',
    });
  }
  return new AppError('BAD_REQUEST', 'The request is not valid HTTP.');
}

/** Fastify's `clientErrorHandler` option: Node refused the request before it became one, so answer on the socket. */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  // A reset connection has nobody left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const appError = clientErrorFor(error.code);
  if (socket.writable) {
    const body = JSON.stringify(errorBody(appError));
    socket.write(
      `HTTP/1.1 ${appError.status} ${STATUS_CODES[appError.status]}\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

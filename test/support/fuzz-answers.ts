import { z } from 'zod';
import { apiErrorSchema } from '../../src/contract/errors.js';
import type { Route } from './fuzz-inputs.js';

// What the fuzz suite accepts as an answer: no 5xx, no stack trace, and every refusal in the error shape.

/** The error shape, with API v1's envelope fields and any code that is a stable machine name. */
const errorShape = apiErrorSchema.extend({ code: z.string().regex(/^[A-Z][A-Z0-9_]*$/) });

export type Violation = { route: string; request: string; status: number; why: string; body: string };

/**
 * A GET outside /api whose path (after the router's decoding, e.g. `/p2/%2e%2e/x`) names no page is answered by the
 * web app's Page Not Found with status 404 (issue 12): a page for people, not an API error.
 */
function isPageNotFound(request: string, status: number, contentType: string | undefined, body: string): boolean {
  const [, method, target] = request.split(' ', 3);
  const isPageRequest = (method === 'GET' || method === 'HEAD') && !target?.startsWith('/api');
  return (
    isPageRequest &&
    status === 404 &&
    Boolean(contentType?.startsWith('text/html')) &&
    body.startsWith('<!doctype html>')
  );
}

/** The violation in an answer to `request` (`identity METHOD target`), if any. */
export function checkAnswer(
  route: Route,
  request: string,
  status: number,
  contentType: string | undefined,
  body: string,
): Violation | undefined {
  const found = (why: string): Violation => ({
    route: `${route.method} ${route.url}`,
    request,
    status,
    why,
    body: body.slice(0, 300),
  });
  if (status >= 500) return found('5xx');
  if (/\n\s+at /.test(body) || body.includes('node_modules')) return found('stack trace');
  if (status < 400) return undefined;
  if (isPageNotFound(request, status, contentType, body)) return undefined;
  if (!contentType?.startsWith('application/json')) return found(`error answered as ${contentType}`);
  try {
    const parsed = errorShape.safeParse(JSON.parse(body));
    if (!parsed.success) return found('body outside the error shape');
    if (parsed.data.status !== status) return found('status field differs from the HTTP status');
  } catch {
    return found('error body is not JSON');
  }
  return undefined;
}

/**
 * The violation in the answer to a request whose Host is not `hostname[:port]` (issue 28): refused with 400 in the
 * error shape before any route. Over a real socket the server refuses it before anything else: `status` is NaN when
 * the socket was closed without an answer (Node's parser refusing the request), a refusal too. Through inject, which
 * skips the server, Fastify's hook refuses it after the router, whose own refusals (414, a path parameter too long)
 * come first and are accepted.
 */
export function checkHostRefusal(
  via: 'inject' | 'socket',
): (
  route: Route,
  request: string,
  status: number,
  contentType: string | undefined,
  body: string,
) => Violation | undefined {
  return (route, request, status, contentType, body) => {
    if (via === 'socket' && Number.isNaN(status)) return undefined;
    const shapeViolation = checkAnswer(route, request, status, contentType, body);
    if (shapeViolation) return shapeViolation;
    if (status === 400 || (via === 'inject' && status === 414)) return undefined;
    const why = 'a bad Host was not refused with 400';
    return { route: `${route.method} ${route.url}`, request, status, why, body: body.slice(0, 300) };
  };
}

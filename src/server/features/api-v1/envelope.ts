import type { z } from 'zod';
import {
  API_V1_PROVIDER,
  type ApiV1Error,
  type ApiV1Meta,
  apiV1Envelope,
  apiV1ErrorSchema,
} from '../../../contract/api-v1.js';
import { API_V1_VERSION } from '../../../contract/developer.js';
import { type AppError, errorBody } from '../../http/errors.js';

// The envelope of every /api/v1 answer (spec §3): {success, data, meta}; errors carry the app's error fields.

const baseMeta = (): ApiV1Meta => ({ provider: API_V1_PROVIDER, apiVersion: API_V1_VERSION });

/** A successful answer; a list's `meta.total` is its length unless given. */
export function envelope<T>(data: T, meta: Omit<Partial<ApiV1Meta>, 'provider' | 'apiVersion'> = {}) {
  const total = Array.isArray(data) ? data.length : undefined;
  return { success: true as const, data, meta: { ...baseMeta(), ...(total !== undefined ? { total } : {}), ...meta } };
}

/** An error's envelope, naming the request (as X-Request-Id does) so that support can find it in the log. */
export function errorEnvelope(error: AppError, requestId: string): ApiV1Error {
  return { success: false, ...errorBody(error), code: error.code, meta: baseMeta(), requestId };
}

const errorResponses = { '4XX': apiV1ErrorSchema, '5XX': apiV1ErrorSchema };

/** A route's answers for the OpenAPI document and the serializer: its data in the envelope, errors in theirs. */
export function okResponses<T extends z.ZodType>(data: T) {
  return { 200: apiV1Envelope(data), ...errorResponses };
}

export function createdResponses<T extends z.ZodType>(data: T) {
  return { 201: apiV1Envelope(data), ...errorResponses };
}

/** A command that started work and answers before it is done (a package refresh). */
export function acceptedResponses<T extends z.ZodType>(data: T) {
  return { 202: apiV1Envelope(data), ...errorResponses };
}

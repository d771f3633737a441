import type { FastifyInstance, FastifySchema, HTTPMethods } from 'fastify';
import type { z } from 'zod';
import type { ApiTokenPermission } from '../../../contract/developer.js';
import type { ZodReply, ZodRequest } from '../../http/guarded-routes.js';
import { acceptedResponses, createdResponses, envelope, okResponses } from './envelope.js';

// One way to declare an API v1 operation (issue 29): what the OpenAPI document and the bearer guard read (its
// permission, operation id, summary, description, request schemas and the schema of the data it answers) and a
// handler that returns that data. The declarer adds the tag, puts the data in the envelope and answers with the
// operation's status, so a route only parses, calls a service and returns.

export type ApiV1Operation = {
  /** The API token permission the bearer guard checks (api-v1-auth.ts); the document names it too. */
  permission: ApiTokenPermission;
  operationId: string;
  summary: string;
  description?: string;
  params?: z.ZodType;
  querystring?: z.ZodType;
  headers?: z.ZodType;
  body?: z.ZodType;
  /** The schema of the envelope's `data`. */
  answer: z.ZodType;
  /** 201 for an operation that creates, 202 for one that starts work finished later; 200 unless said. */
  status?: 201 | 202;
};

type EnvelopeMeta = NonNullable<Parameters<typeof envelope>[1]>;

/** Data whose envelope carries more than the defaults: a page's next cursor, a figure's period and currency. */
class AnswerWithMeta<T> {
  constructor(
    readonly data: T,
    readonly meta: EnvelopeMeta | undefined,
  ) {}
}

export function withMeta<T>(data: T, meta: EnvelopeMeta | undefined): AnswerWithMeta<T> {
  return new AnswerWithMeta(data, meta);
}

/** The data of a DELETE that answers which object went (apiV1DeletedSchema). */
export function deletedAnswer(id: string) {
  return { id, deleted: true as const };
}

type AnswerData<O extends ApiV1Operation> = z.input<O['answer']>;

export type ApiV1Handler<O extends ApiV1Operation> = (
  request: ZodRequest<O>,
  reply: ZodReply<O>,
) => Promise<AnswerData<O> | AnswerWithMeta<AnswerData<O>>>;

type DeclareOperation = <const O extends ApiV1Operation>(url: string, operation: O, handler: ApiV1Handler<O>) => void;

const responsesByStatus = { 200: okResponses, 201: createdResponses, 202: acceptedResponses };

/** Declares API v1 operations under one tag of the OpenAPI document. */
export function apiV1Operations(
  app: FastifyInstance,
  tag: string,
): Record<'get' | 'post' | 'patch' | 'delete', DeclareOperation> {
  const declare =
    (method: HTTPMethods): DeclareOperation =>
    (url, operation, handler) => {
      const { permission, operationId, summary, description, answer, status = 200, ...request } = operation;
      // The operation types the handler; Fastify itself reads the schema as any route's.
      const schema: FastifySchema = {
        tags: [tag],
        operationId,
        summary,
        ...(description === undefined ? {} : { description }),
        ...request,
        response: responsesByStatus[status](answer),
      };
      app.route({
        method,
        url,
        config: { apiPermission: permission },
        schema,
        handler: async (req, reply) => {
          const answered = await handler(req as never, reply as never);
          reply.code(status);
          return answered instanceof AnswerWithMeta ? envelope(answered.data, answered.meta) : envelope(answered);
        },
      });
    };
  return { get: declare('GET'), post: declare('POST'), patch: declare('PATCH'), delete: declare('DELETE') };
}

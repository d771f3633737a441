import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { apiV1Operations, deletedAnswer, withMeta } from './api-v1-operations.js';
import { okResponses } from './envelope.js';

let app: FastifyInstance;

/** A bare Fastify with the app's zod compilers. */
function zodApp(): FastifyInstance {
  app = Fastify({ logger: false }).setValidatorCompiler(validatorCompiler).setSerializerCompiler(serializerCompiler);
  return app;
}

afterEach(async () => {
  await app?.close();
});

const item = z.object({ id: z.string() });

describe('apiV1Operations', () => {
  it('declares the tag, the permission and the enveloped answers the document and the guard read', async () => {
    const params = z.object({ id: z.string() });
    let declared: FastifyRequest['routeOptions'] | undefined;
    zodApp().addHook('onRequest', async (request) => {
      declared = request.routeOptions;
    });
    apiV1Operations(app, 'Products').patch(
      '/products/:id',
      { permission: 'packages:write', operationId: 'updateProduct', summary: 'Update', params, answer: item },
      async (request) => ({ id: request.params.id }),
    );
    await app.inject({ method: 'PATCH', url: '/products/a' });
    expect(declared?.config).toMatchObject({ apiPermission: 'packages:write' });
    const schema = declared?.schema as Record<string, unknown>;
    // The keys in the order the OpenAPI document has always listed them.
    expect(Object.keys(schema)).toEqual(['tags', 'operationId', 'summary', 'params', 'response']);
    expect(schema).toMatchObject({ tags: ['Products'], operationId: 'updateProduct', summary: 'Update' });
    expect(schema.params).toBe(params);
    expect(Object.keys(schema.response as object)).toEqual(Object.keys(okResponses(item)));
  });

  it('answers the data in the envelope with the operation status, and the meta asked for', async () => {
    const things = apiV1Operations(zodApp(), 'Things');
    const base = { permission: 'packages:read', summary: 'A thing' } as const;
    things.post('/things', { ...base, operationId: 'create', answer: item, status: 201 }, async () => ({ id: 'a' }));
    things.get('/things', { ...base, operationId: 'list', answer: z.array(item) }, async () =>
      withMeta([{ id: 'a' }], { nextCursor: 'next' }),
    );
    things.delete(
      '/things/:id',
      { ...base, operationId: 'delete', answer: item.extend({ deleted: z.literal(true) }) },
      async () => deletedAnswer('a'),
    );

    const created = await app.inject({ method: 'POST', url: '/things' });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ success: true, data: { id: 'a' } });
    const listed = await app.inject({ method: 'GET', url: '/things' });
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toMatchObject({ data: [{ id: 'a' }], meta: { total: 1, nextCursor: 'next' } });
    const deleted = await app.inject({ method: 'DELETE', url: '/things/a' });
    expect(deleted.json()).toMatchObject({ data: { id: 'a', deleted: true } });
  });
});

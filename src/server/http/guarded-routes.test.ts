import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  adminOnlyRoutes,
  declaredSuccessStatus,
  routesGuardedBy,
  sellerRoutes,
  signedInRoutes,
} from './guarded-routes.js';
import { adminOnly, authenticated } from './guards.js';
import { ANY_SIGNED_IN } from './permissions.js';

let app: FastifyInstance;

/** A bare Fastify with the app's zod compilers, remembering every route as registered. */
function bareApp(): { app: FastifyInstance; routes: RouteOptions[] } {
  const routes: RouteOptions[] = [];
  app = Fastify({ logger: false });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onRoute', (route) => {
    if (route.method !== 'HEAD') routes.push(route);
  });
  return { app, routes };
}

afterEach(async () => {
  await app?.close();
});

const answer = z.object({ id: z.string() });

describe('sellerRoutes', () => {
  it('puts the session guard before the body is read and the permission in the config of every route', async () => {
    const { app, routes } = bareApp();
    sellerRoutes(app).put(
      '/things/:id',
      { permission: 'packages:write', config: { rateLimit: { max: 3 } }, schema: { params: answer } },
      async (request) => ({ id: request.params.id }),
    );
    await app.ready();
    expect(routes[0]).toMatchObject({
      method: 'PUT',
      url: '/things/:id',
      onRequest: authenticated,
      config: { permission: 'packages:write', rateLimit: { max: 3 } },
    });
    expect(routes[0]?.preValidation).toBeUndefined();
  });

  it('guards once the body is parsed when the file says so', async () => {
    const { app, routes } = bareApp();
    sellerRoutes(app, { guardAt: 'preValidation' }).get('/things', { permission: 'packages:read' }, async () => []);
    await app.ready();
    expect(routes[0]).toMatchObject({ preValidation: authenticated, config: { permission: 'packages:read' } });
    expect(routes[0]?.onRequest).toBeUndefined();
  });
});

describe('signedInRoutes and adminOnlyRoutes', () => {
  it('lets any signed-in person in, with what the file adds to each route', async () => {
    const { app, routes } = bareApp();
    signedInRoutes(app, { secondFactorGate: 'enrolment' }).delete('/mine', {}, async () => ({}));
    await app.ready();
    expect(routes[0]).toMatchObject({
      onRequest: authenticated,
      config: { permission: ANY_SIGNED_IN, secondFactorGate: 'enrolment' },
    });
  });

  it("puts the admin's guard on every admin route", async () => {
    const { app, routes } = bareApp();
    adminOnlyRoutes(app).post('/admin/things', {}, async () => ({}));
    await app.ready();
    expect(routes[0]).toMatchObject({ method: 'POST', onRequest: adminOnly });
  });
});

describe('routesGuardedBy', () => {
  it('never runs the handler of a request its guard refuses', async () => {
    const { app } = bareApp();
    let handled = 0;
    const guard = async () => {
      throw Object.assign(new Error('no'), { statusCode: 401 });
    };
    routesGuardedBy(app, guard).post('/guarded', { schema: { body: answer } }, async () => {
      handled += 1;
      return {};
    });
    // Refused before the body is read: an invalid body still answers the guard's 401.
    const response = await app.inject({ method: 'POST', url: '/guarded', payload: { id: 1 } });
    expect(response.statusCode).toBe(401);
    expect(handled).toBe(0);
  });

  it('answers with the success status the schema declares, and no-store when the route says so', async () => {
    const { app } = bareApp();
    const open = routesGuardedBy(app, async () => {});
    open.post('/created', { schema: { response: { 201: answer } } }, async () => ({ id: 'a' }));
    open.post('/accepted', { schema: { response: { 202: answer, 400: answer } } }, async () => ({ id: 'b' }));
    open.get('/plain', { noStore: true, schema: { response: { 200: answer } } }, async () => ({ id: 'c' }));
    open.get('/failing', { noStore: true }, async () => {
      throw Object.assign(new Error('gone'), { statusCode: 404 });
    });

    const created = await app.inject({ method: 'POST', url: '/created' });
    expect([created.statusCode, created.json(), created.headers['cache-control']]).toEqual([
      201,
      { id: 'a' },
      undefined,
    ]);
    expect((await app.inject({ method: 'POST', url: '/accepted' })).statusCode).toBe(202);
    const plain = await app.inject({ method: 'GET', url: '/plain' });
    expect([plain.statusCode, plain.headers['cache-control']]).toEqual([200, 'no-store']);
    const failing = await app.inject({ method: 'GET', url: '/failing' });
    expect([failing.statusCode, failing.headers['cache-control']]).toEqual([404, 'no-store']);
  });
});

describe('declaredSuccessStatus', () => {
  it.each([
    [{ response: { 201: answer } }, 201],
    [{ response: { 202: answer, '4XX': answer } }, 202],
    [{ response: { 200: answer } }, undefined],
    [{ response: { 200: answer, 201: answer } }, undefined],
    [{ params: answer }, undefined],
    [undefined, undefined],
  ])('reads %o as %s', (schema, status) => {
    expect(declaredSuccessStatus(schema)).toBe(status);
  });
});

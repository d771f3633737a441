import type {
  ContextConfigDefault,
  FastifyContextConfig,
  FastifyInstance,
  FastifyRequest,
  FastifySchema,
  HTTPMethods,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteShorthandOptionsWithHandler,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { TeamPermission } from '../../contract/team.js';
import { adminOnly, authenticated } from './guards.js';
import { ANY_SIGNED_IN } from './permissions.js';

// One way to declare a guarded route (issue 29): a file takes a declarer for its audience (the seller dashboard, the
// admin, any signed-in person, a guard of its own) and declares every route through it, so the guard, and for a
// seller route its permission, is part of the declaration and no route can forget it. Fastify's zod type provider
// still types each handler's params, query, body and answers from the route's schema.

/** A route as Fastify's zod type provider reads it: its schema `S` types the handler's request and answers. */
type ZodRoute<S extends FastifySchema> = RouteShorthandOptionsWithHandler<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RouteGenericInterface,
  ContextConfigDefault,
  S,
  ZodTypeProvider
>;
export type ZodRouteOptions<S extends FastifySchema> = Omit<ZodRoute<S>, 'handler'>;
export type ZodRouteHandler<S extends FastifySchema> = ZodRoute<S>['handler'];
/** The request and the reply a handler of a route with schema `S` gets. */
export type ZodRequest<S extends FastifySchema> = Parameters<ZodRouteHandler<S>>[0];
export type ZodReply<S extends FastifySchema> = Parameters<ZodRouteHandler<S>>[1];

/**
 * Where a guard runs (http/guards.ts): `onRequest` refuses before the body is read, `preValidation` once it is
 * parsed; both before it is validated.
 */
export type GuardStage = 'onRequest' | 'preValidation';

/** What a route declares itself; its guard is the declarer's. */
export type GuardedRouteOptions<S extends FastifySchema> = Omit<ZodRouteOptions<S>, GuardStage> & {
  /** Its answers carry `Cache-Control: no-store`, set before the handler runs (so its errors carry it too). */
  noStore?: boolean;
};

type DeclareRoute<Own> = <const S extends FastifySchema = FastifySchema>(
  url: string,
  options: GuardedRouteOptions<S> & Own,
  handler: ZodRouteHandler<S>,
) => void;

export type RouteDeclarer<Own = unknown> = Record<'get' | 'post' | 'put' | 'patch' | 'delete', DeclareRoute<Own>>;

/**
 * The one success status other than 200 a route's schema declares (201 Created, 202 Accepted): the route answers
 * with it, so its handler returns the answer as any other does and the status cannot disagree with the schema.
 */
export function declaredSuccessStatus(schema: FastifySchema | undefined): number | undefined {
  const statuses = Object.keys(schema?.response ?? {})
    .map(Number)
    .filter((status) => status >= 200 && status < 300);
  return statuses.length === 1 && statuses[0] !== 200 ? statuses[0] : undefined;
}

/** The handler, after the status and the no-store header the route declares are set on its reply. */
function answering(
  handler: ZodRouteHandler<FastifySchema>,
  { status, noStore }: { status: number | undefined; noStore: boolean | undefined },
): ZodRouteHandler<FastifySchema> {
  if (status === undefined && !noStore) return handler;
  return function (this: FastifyInstance, request, reply) {
    if (status !== undefined) reply.code(status);
    if (noStore) reply.header('cache-control', 'no-store');
    return handler.call(this, request, reply);
  } as ZodRouteHandler<FastifySchema>;
}

/** `guard` turns what a route declares into Fastify's route options, its guard added. */
function routeDeclarer<Own>(
  app: FastifyInstance,
  guard: (options: GuardedRouteOptions<FastifySchema> & Own) => ZodRouteOptions<FastifySchema>,
): RouteDeclarer<Own> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const declare =
    (method: HTTPMethods): DeclareRoute<Own> =>
    (url, { noStore, ...options }, handler) => {
      const routeOptions = guard(options as GuardedRouteOptions<FastifySchema> & Own);
      const status = declaredSuccessStatus(routeOptions.schema);
      api.route({
        method,
        url,
        ...routeOptions,
        handler: answering(handler as ZodRouteHandler<FastifySchema>, { status, noStore }),
      });
    };
  return {
    get: declare('GET'),
    post: declare('POST'),
    put: declare('PUT'),
    patch: declare('PATCH'),
    delete: declare('DELETE'),
  };
}

/** Routes behind one guard of the caller's, run before the body is read (the portal's holder, the local admin). */
export function routesGuardedBy(
  app: FastifyInstance,
  guard: (request: FastifyRequest) => Promise<unknown>,
): RouteDeclarer {
  return routeDeclarer<unknown>(app, (options) => ({ ...options, onRequest: guard }));
}

/** The admin's routes: the signed-in admin, or the one behind an impersonation (`request.admin`). */
export function adminOnlyRoutes(app: FastifyInstance): RouteDeclarer {
  return routesGuardedBy(app, adminOnly);
}

/**
 * The seller dashboard's routes: behind the session guard (`request.seller`, `request.principal`), each naming the
 * permission the person's role needs (http/permissions.ts checks it). `guardAt` is where the guard runs.
 */
export function sellerRoutes(
  app: FastifyInstance,
  { guardAt = 'onRequest' }: { guardAt?: GuardStage } = {},
): RouteDeclarer<{ permission: TeamPermission }> {
  return routeDeclarer<{ permission: TeamPermission }>(app, ({ permission, config, ...options }) => ({
    ...options,
    config: { ...config, permission },
    [guardAt]: authenticated,
  }));
}

/**
 * Routes any signed-in person may use whatever their role (their organisations, their own sign-in); `config` is
 * what each of them adds (a second factor gate).
 */
export function signedInRoutes(app: FastifyInstance, config: FastifyContextConfig = {}): RouteDeclarer {
  return routeDeclarer<unknown>(app, ({ config: own, ...options }) => ({
    ...options,
    config: { ...config, ...own, permission: ANY_SIGNED_IN },
    onRequest: authenticated,
  }));
}

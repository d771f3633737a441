import type { FastifyInstance } from 'fastify';
import {
  abandonPackageInput,
  advisoryParams,
  advisorySchema,
  createAdvisoryInput,
  packageLifecycleSchema,
  versionParams,
  yankVersionInput,
} from '../../../contract/lifecycle.js';
import { packageIdParams } from '../../../contract/packages.js';
import type { AppContext } from '../../context.js';
import { sellerRoutes } from '../../http/guarded-routes.js';
import * as lifecycle from './lifecycle.service.js';

// The seller's lifecycle actions on one of their packages (session + CSRF like every seller route); another
// seller's package answers 404.

export async function lifecycleRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const sellerApi = sellerRoutes(app);

  sellerApi.get(
    '/api/repositories/:id/lifecycle',
    {
      permission: 'packages:read',
      noStore: true,
      schema: { params: packageIdParams, response: { 200: packageLifecycleSchema } },
    },
    async (request) => lifecycle.getLifecycle(ctx, request.seller.id, request.params.id),
  );

  sellerApi.post(
    '/api/repositories/:id/advisories',
    {
      permission: 'packages:write',
      schema: { params: packageIdParams, body: createAdvisoryInput, response: { 201: advisorySchema } },
    },
    async (request) => lifecycle.publishAdvisory(ctx, request.seller.id, request.params.id, request.body),
  );

  sellerApi.delete(
    '/api/repositories/:id/advisories/:advisoryId',
    { permission: 'packages:write', schema: { params: advisoryParams, response: { 200: packageLifecycleSchema } } },
    async (request) => lifecycle.withdrawAdvisory(ctx, request.seller.id, request.params.id, request.params.advisoryId),
  );

  sellerApi.put(
    '/api/repositories/:id/abandonment',
    {
      permission: 'packages:write',
      schema: { params: packageIdParams, body: abandonPackageInput, response: { 200: packageLifecycleSchema } },
    },
    async (request) => lifecycle.abandonPackage(ctx, request.seller.id, request.params.id, request.body),
  );

  sellerApi.delete(
    '/api/repositories/:id/abandonment',
    { permission: 'packages:write', schema: { params: packageIdParams, response: { 200: packageLifecycleSchema } } },
    async (request) => lifecycle.reviveAbandonedPackage(ctx, request.seller.id, request.params.id),
  );

  sellerApi.put(
    '/api/repositories/:id/versions/:version/yank',
    {
      permission: 'packages:write',
      schema: { params: versionParams, body: yankVersionInput, response: { 200: packageLifecycleSchema } },
    },
    async (request) =>
      lifecycle.yankVersion(ctx, request.seller.id, request.params.id, request.params.version, request.body),
  );

  sellerApi.delete(
    '/api/repositories/:id/versions/:version/yank',
    { permission: 'packages:write', schema: { params: versionParams, response: { 200: packageLifecycleSchema } } },
    async (request) => lifecycle.unyankVersion(ctx, request.seller.id, request.params.id, request.params.version),
  );
}

import type { FastifyInstance } from 'fastify';
import {
  codeHostRepositoryList,
  createGitPackageInput,
  createPackageInput,
  createPackageResponse,
  deletePackageResponse,
  packageDetailSchema,
  packageIdParams,
  packageList,
  packageSchema,
  reconcilePackagesResponse,
  refreshPackageResponse,
  updatePackageInput,
} from '../../../contract/packages.js';
import type { AppContext } from '../../context.js';
import { sellerRoutes } from '../../http/guarded-routes.js';
import { createGitPackage } from './git-packages.service.js';
import { receiveGithubWebhook } from './github-webhook.service.js';
import { githubWebhookRoute } from './github-webhook-route.js';
import { deletePackage, refreshPackage, updatePackage } from './package-changes.service.js';
import { createPackage } from './package-create.service.js';
import * as packages from './packages.service.js';
import { requestReconciliation } from './reconcile.job.js';

export async function packageRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const sellerApi = sellerRoutes(app);

  sellerApi.get(
    '/api/github/repositories',
    { permission: 'packages:write', noStore: true, schema: { response: { 200: codeHostRepositoryList } } },
    async (request) => packages.listCodeHostRepositories(ctx, request.seller),
  );

  sellerApi.get(
    '/api/repositories',
    { permission: 'packages:read', noStore: true, schema: { response: { 200: packageList } } },
    async (request) => packages.listPackagesForOwner(ctx, request.seller.id),
  );

  sellerApi.post(
    '/api/repositories',
    { permission: 'packages:write', schema: { body: createPackageInput, response: { 201: createPackageResponse } } },
    async (request) => createPackage(ctx, request.principal, request.body),
  );

  // Any git server by its URL (issue 30 item 4): HTTPS with a user name and password, or SSH with a deploy key.
  sellerApi.post(
    '/api/repositories/from-url',
    { permission: 'packages:write', schema: { body: createGitPackageInput, response: { 201: createPackageResponse } } },
    async (request) => createGitPackage(ctx, request.principal, request.body),
  );

  sellerApi.get(
    '/api/repositories/:id',
    {
      permission: 'packages:read',
      noStore: true,
      schema: { params: packageIdParams, response: { 200: packageDetailSchema } },
    },
    async (request) => packages.getPackageDetail(ctx, request.seller.id, request.params.id),
  );

  sellerApi.put(
    '/api/repositories/:id',
    {
      permission: 'packages:write',
      schema: { params: packageIdParams, body: updatePackageInput, response: { 200: packageSchema } },
    },
    async (request) => updatePackage(ctx, request.principal, request.params.id, request.body),
  );

  sellerApi.delete(
    '/api/repositories/:id',
    { permission: 'packages:write', schema: { params: packageIdParams, response: { 200: deletePackageResponse } } },
    async (request) => {
      await deletePackage(ctx, request.principal, request.params.id);
      return { success: true as const, id: request.params.id };
    },
  );

  sellerApi.post(
    '/api/repositories/:id/refresh',
    { permission: 'packages:write', schema: { params: packageIdParams, response: { 202: refreshPackageResponse } } },
    async (request) => {
      const sync = await refreshPackage(ctx, request.principal, request.params.id);
      return { taskId: sync.taskId };
    },
  );

  // Check for new tags: the seller's packages compared with their remotes now, as the schedule does (issue 30 item 5).
  sellerApi.post(
    '/api/repositories/reconcile',
    { permission: 'packages:write', schema: { response: { 202: reconcilePackagesResponse } } },
    async (request) => ({ jobId: await requestReconciliation(ctx, request.seller.id) }),
  );

  await app.register(githubWebhookRoute('/api/webhooks/github', receiveGithubWebhook), { ctx });
}

import type { FastifyInstance } from 'fastify';
import {
  adminStats,
  adminUserList,
  cachedPackageList,
  cachePackageParams,
  cacheRefreshAllResponse,
  cacheStats,
  cacheTaskResponse,
  impersonateRequest,
  impersonationResponse,
} from '../../../contract/admin.js';
import type { AppContext } from '../../context.js';
import { adminOnlyRoutes } from '../../http/guarded-routes.js';
import { startSession } from '../../http/session.js';
import { presentAuthUser } from '../../http/session-user.js';
import { chooseImpersonationTarget, impersonatingAdmin, listUsersForAdmin } from './admin.service.js';
import { getAdminStats } from './admin-stats.service.js';
import { clearCache, getCacheStats, listCachedPackages, refreshAllPackages, refreshPackage } from './cache.service.js';

export async function adminRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const adminApi = adminOnlyRoutes(app);

  adminApi.get('/api/admin/users', { schema: { response: { 200: adminUserList } } }, async () =>
    listUsersForAdmin(ctx),
  );

  adminApi.post(
    '/api/admin/impersonate',
    { schema: { body: impersonateRequest, response: { 200: impersonationResponse } } },
    async (request, reply) => {
      const admin = request.admin;
      const target = await chooseImpersonationTarget(ctx, admin, request.body.userId);
      await startSession(ctx, request, reply, target.id, { impersonatorId: admin.id });
      return {
        success: true as const,
        message: 'You are now viewing as this user',
        user: presentAuthUser(target, admin),
      };
    },
  );

  adminApi.post(
    '/api/admin/stop-impersonation',
    { schema: { response: { 200: impersonationResponse } } },
    async (request, reply) => {
      const admin = impersonatingAdmin(ctx, request.seller, request.admin);
      await startSession(ctx, request, reply, admin.id);
      return { success: true as const, message: 'You are back to your admin account', user: presentAuthUser(admin) };
    },
  );

  adminApi.get('/api/admin/stats', { schema: { response: { 200: adminStats } } }, async () => getAdminStats(ctx));

  adminApi.get('/api/admin/cache/stats', { schema: { response: { 200: cacheStats } } }, async () => getCacheStats(ctx));

  adminApi.get('/api/admin/cache/packages', { schema: { response: { 200: cachedPackageList } } }, async () =>
    listCachedPackages(ctx),
  );

  adminApi.post(
    '/api/admin/cache/refresh-all',
    { schema: { response: { 200: cacheRefreshAllResponse } } },
    async (request) => refreshAllPackages(ctx, request.admin.id),
  );

  adminApi.post(
    '/api/admin/cache/refresh/:id',
    { schema: { params: cachePackageParams, response: { 200: cacheTaskResponse } } },
    async (request) => refreshPackage(ctx, request.admin.id, request.params.id),
  );

  adminApi.post('/api/admin/cache/clear', { schema: { response: { 200: cacheTaskResponse } } }, async (request) =>
    clearCache(ctx, request.admin.id),
  );
}

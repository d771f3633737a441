import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { accountRoutes } from '../features/accounts/accounts.routes.js';
import { adminRoutes } from '../features/admin/admin.routes.js';
import { localAdminRoutes } from '../features/admin/local-admin.routes.js';
import { planConfigurationRoutes } from '../features/admin/plan-configuration.routes.js';
import { analyticsRoutes } from '../features/analytics/analytics.routes.js';
import type { ApiV1Options } from '../features/api-v1/api-v1.plugin.js';
import { apiV1Plugin } from '../features/api-v1/api-v1.plugin.js';
import { authRoutes } from '../features/auth/auth.routes.js';
import { secondFactorRoutes } from '../features/auth/second-factor.routes.js';
import { billingRoutes } from '../features/billing/billing.routes.js';
import { brandingRoutes } from '../features/branding/branding.routes.js';
import { bitbucketRoutes } from '../features/code-hosts/bitbucket.routes.js';
import { codeHostRoutes } from '../features/code-hosts/code-hosts.routes.js';
import { gitlabRoutes } from '../features/code-hosts/gitlab.routes.js';
import { composerRoutes } from '../features/composer/composer.routes.js';
import { holderTokenRoutes } from '../features/credentials/holder-tokens.routes.js';
import { leakedTokenSettingRoutes } from '../features/credentials/leaked-token-setting.routes.js';
import { oidcTrustRoutes } from '../features/credentials/oidc-trusts.routes.js';
import { secretScanningRoutes } from '../features/credentials/secret-scanning.routes.js';
import { debugRoutes } from '../features/debug/debug.routes.js';
import { developerRoutes } from '../features/developer/developer.routes.js';
import { lastingLicenseRoutes } from '../features/licenses/lasting-licenses.routes.js';
import { licenseRoutes } from '../features/licenses/licenses.routes.js';
import { lifecycleRoutes } from '../features/lifecycle/lifecycle.routes.js';
import { codeHostWebhookRoutes } from '../features/packages/code-host-webhooks.routes.js';
import { githubAppRoutes } from '../features/packages/github-app.routes.js';
import { packageRoutes } from '../features/packages/packages.routes.js';
import { planRoutes } from '../features/plans/plans.routes.js';
import { platformRoutes } from '../features/platform/platform.routes.js';
import { portalRoutes } from '../features/portal/portal.routes.js';
import { productRoutes } from '../features/products/products.routes.js';
import { salesRoutes } from '../features/sales/sales.routes.js';
import { subscriptionRoutes } from '../features/subscriptions/subscriptions.routes.js';
import { taskRoutes } from '../features/tasks/tasks.routes.js';
import { teamRoutes } from '../features/teams/teams.routes.js';
import { webhookRoutes } from '../features/webhooks/webhooks.routes.js';
import { operationsRoutes } from '../http/operations.js';

// Every door of the product, in the order buildApp (app.ts) registers them: each feature's routes, API v1 with its
// own scope, and the debug routes only when ENABLE_DEBUG_ROUTES is on.

/** A feature's doors, added to the scope every door shares. */
type FeatureRoutes = (api: FastifyInstance, ctx: AppContext) => PromiseLike<unknown>;

/** A feature's doors that need a Fastify scope of their own (a raw-body parser, say), registered as a plugin. */
const inOwnScope =
  (plugin: (api: FastifyInstance, options: { ctx: AppContext }) => Promise<void>): FeatureRoutes =>
  (api, ctx) =>
    api.register(plugin, { ctx });

export async function registerRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  { operations, apiV1 }: { operations: Parameters<typeof operationsRoutes>[1]; apiV1: ApiV1Options },
): Promise<void> {
  const features: FeatureRoutes[] = [
    platformRoutes,
    authRoutes,
    secondFactorRoutes,
    planRoutes,
    planConfigurationRoutes,
    subscriptionRoutes,
    billingRoutes,
    salesRoutes,
    adminRoutes,
    localAdminRoutes,
    packageRoutes,
    codeHostRoutes,
    githubAppRoutes,
    gitlabRoutes,
    bitbucketRoutes,
    inOwnScope(codeHostWebhookRoutes),
    lifecycleRoutes,
    taskRoutes,
    composerRoutes,
    oidcTrustRoutes,
    holderTokenRoutes,
    leakedTokenSettingRoutes,
    inOwnScope(secretScanningRoutes),
    licenseRoutes,
    lastingLicenseRoutes,
    productRoutes,
    developerRoutes,
    (api) => apiV1Plugin(api, ctx, apiV1),
    analyticsRoutes,
    webhookRoutes,
    teamRoutes,
    accountRoutes,
    brandingRoutes,
    portalRoutes,
    ...(ctx.config.enableDebugRoutes ? [debugRoutes] : []),
  ];
  await app.register(async (api) => {
    await operationsRoutes(api, operations);
    for (const routes of features) await routes(api, ctx);
  });
}

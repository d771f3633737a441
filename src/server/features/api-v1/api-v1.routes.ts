import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  apiV1Analytics,
  apiV1CreatedToken,
  apiV1CreateLicenseInput,
  apiV1CreatePackageInput,
  apiV1CreateTokenInput,
  apiV1Customer,
  apiV1DeletedSchema,
  apiV1IdParams,
  apiV1IssuedLicense,
  apiV1License,
  apiV1LicenseQuery,
  apiV1Package,
  apiV1PageQuery,
  apiV1RegeneratedToken,
  apiV1RegenerateTokenInput,
  apiV1Token,
  apiV1UpdateLicenseInput,
  apiV1UpdatePackageInput,
  auditEventQuery,
  auditEventSchema,
  purchaseLinksInput,
  purchaseLinksSchema,
} from '../../../contract/api-v1.js';
import type { AppContext } from '../../context.js';
import { organizationOf } from '../../http/principal.js';
import * as apiTokens from '../api-tokens/api-tokens.service.js';
import * as lastingLicenses from '../licenses/lasting-licenses.service.js';
import { issueLicenses } from '../licenses/license-batch.service.js';
import { listAuditEvents } from '../shared/audit/audit.service.js';
import * as apiV1 from './api-v1.service.js';
import { apiV1Operations, deletedAnswer, withMeta } from './api-v1-operations.js';
import { idempotencyHeader } from './openapi.js';

// API v1 (registered under /api/v1). Each operation names its permission, its tag in the OpenAPI document, and its
// schemas; it parses and calls a service, and its declarer (api-v1-operations.ts) wraps the answer in the envelope.

export async function apiV1Routes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const packagesApi = apiV1Operations(app, 'Packages');
  const customersApi = apiV1Operations(app, 'Customers');
  const licensesApi = apiV1Operations(app, 'Licenses');
  const analyticsApi = apiV1Operations(app, 'Analytics');
  const tokensApi = apiV1Operations(app, 'Tokens');

  packagesApi.get(
    '/packages',
    {
      permission: 'packages:read',
      operationId: 'listPackages',
      summary: 'List packages',
      description:
        'Every package you own. pricingType, priceCents and currency are those of the first active pricing tier; ' +
        'purchaseUrl and directPurchaseUrl sell it; all are null while the package is inactive or has no active tier.',
      answer: z.array(apiV1Package),
    },
    async (request) => apiV1.listApiPackages(ctx, request.principal.sellerId),
  );

  packagesApi.get(
    '/packages/:id',
    {
      permission: 'packages:read',
      operationId: 'getPackage',
      summary: 'Get a package',
      params: apiV1IdParams,
      answer: apiV1Package,
    },
    async (request) => apiV1.getApiPackage(ctx, request.principal.sellerId, request.params.id),
  );

  packagesApi.post(
    '/packages/:id/purchase-links',
    {
      permission: 'packages:read',
      operationId: 'createPurchaseLinks',
      summary: 'Create purchase links',
      description:
        'A purchase page, a direct checkout link and an embed code (a buy button) for a pricing tier, all on your ' +
        'repository host. Nothing is charged or recorded until a buyer clicks Buy on the purchase page a link opens ' +
        '(the direct checkout link opens that page too; with billing off the page says payments are not set up). Errors: 404 NOT_FOUND for ' +
        'an unknown package or tier; 409 CONFLICT while the package has no prices, is inactive, or (with ' +
        'payments on) you have no payout account that can take payments; 400 VALIDATION_FAILED for a bad ' +
        'e-mail, return address or a currency other than the tier’s.',
      params: apiV1IdParams,
      headers: idempotencyHeader,
      body: purchaseLinksInput,
      answer: purchaseLinksSchema,
    },
    async (request) =>
      apiV1.createApiPurchaseLinks(ctx, request.principal.sellerId, request.params.id, request.body ?? {}),
  );

  packagesApi.post(
    '/packages',
    {
      permission: 'packages:write',
      operationId: 'createPackage',
      summary: 'Create a package',
      description:
        'Turns one of your code-host repositories (with a composer.json) into a package and starts its sync: ' +
        'give `githubRepoId` and `packageName`, or `repositoryUrl` for any git server (HTTPS with `credentials`, or ' +
        'SSH: the answer’s `deployKey` is to be added to the repository read-only, then refresh the package).',
      headers: idempotencyHeader,
      body: apiV1CreatePackageInput,
      answer: apiV1Package,
      status: 201,
    },
    async (request) => apiV1.createApiPackage(ctx, request.principal, request.body),
  );

  packagesApi.patch(
    '/packages/:id',
    {
      permission: 'packages:write',
      operationId: 'updatePackage',
      summary: 'Update a package',
      params: apiV1IdParams,
      body: apiV1UpdatePackageInput,
      answer: apiV1Package,
    },
    async (request) => apiV1.updateApiPackage(ctx, request.principal, request.params.id, request.body),
  );

  packagesApi.delete(
    '/packages/:id',
    {
      permission: 'packages:write',
      operationId: 'deletePackage',
      summary: 'Delete a package',
      description: 'Deletes the package, its versions and every license of it.',
      params: apiV1IdParams,
      answer: apiV1DeletedSchema,
    },
    async (request) => {
      await apiV1.deleteApiPackage(ctx, request.principal, request.params.id);
      return deletedAnswer(request.params.id);
    },
  );

  customersApi.get(
    '/customers',
    {
      permission: 'customers:read',
      operationId: 'listCustomers',
      summary: 'List customers',
      description:
        'Every license holder by e-mail (buyers, and those you licensed by hand or through this API), with the ' +
        'packages each holds, newest holder first, a page at a time: limit holders (100 unless asked, at most ' +
        '500) and, in meta.nextCursor, the cursor of the next page (null on the last). Analytics’ ' +
        'totalCustomers counts buyers only.',
      querystring: apiV1PageQuery,
      answer: z.array(apiV1Customer),
    },
    async (request) => {
      const page = await apiV1.listApiCustomers(ctx, request.principal.sellerId, request.query);
      return withMeta(page.customers, { nextCursor: page.nextCursor });
    },
  );

  customersApi.post(
    '/customers/regenerate-token',
    {
      permission: 'customers:write',
      operationId: 'regenerateCustomerToken',
      summary: "Regenerate a customer's Composer token",
      description: 'The old token stops working at once. The new one is e-mailed unless sendEmail is false.',
      headers: idempotencyHeader,
      body: apiV1RegenerateTokenInput,
      answer: apiV1RegeneratedToken,
    },
    async (request) => apiV1.regenerateHolderToken(ctx, request.principal, request.body),
  );

  licensesApi.get(
    '/licenses',
    {
      permission: 'customers:read',
      operationId: 'listLicenses',
      summary: 'List licenses',
      description:
        'Your licenses, newest first, of one package, product or holder when asked, a page at a time: limit ' +
        'licenses (100 unless asked, at most 500) and, in meta.nextCursor, the cursor of the next page (null on ' +
        'the last).',
      querystring: apiV1LicenseQuery,
      answer: z.array(apiV1License),
    },
    async (request) => {
      const page = await lastingLicenses.listLicensesPage(ctx, request.principal.sellerId, request.query);
      return withMeta(page.licenses, { nextCursor: page.nextCursor });
    },
  );

  licensesApi.post(
    '/licenses',
    {
      permission: 'customers:write',
      operationId: 'createLicense',
      summary: 'Create a license',
      description:
        'Licenses a package (packageId), several packages at once (packageIds: one license each) or a product (productId: one license covering every package in it, including ones added later) to an e-mail address; send exactly one of the three. A license the holder already has for a package or product takes the new terms. Everything is written in one transaction (a bad id in packageIds writes nothing) and the holder gets one branded e-mail listing every package, unless sendEmail is false. expiresAt null never expires; downloadLimit null is unlimited; endMode says what ends at expiry; versionConstraint (a Composer constraint, up to 200 characters) and minimumStability (stable, RC, beta, alpha or dev, the default) say which versions; seats (null: unlimited) caps the holder’s developer tokens and is refused below the ones they already have. The answer carries the licenses, the repository URL, the setup commands and, for a new holder, their Composer token.',
      headers: idempotencyHeader,
      body: apiV1CreateLicenseInput,
      answer: apiV1IssuedLicense,
      status: 201,
    },
    async (request) => {
      const actor = request.principal;
      const { packageId, packageIds, productId, ...terms } = request.body;
      return issueLicenses(ctx, organizationOf(actor), actor, { packageId, packageIds, productId }, terms);
    },
  );

  licensesApi.get(
    '/licenses/:id',
    {
      permission: 'customers:read',
      operationId: 'getLicense',
      summary: 'Get a license',
      params: apiV1IdParams,
      answer: apiV1License,
    },
    async (request) => lastingLicenses.getLicense(ctx, request.principal.sellerId, request.params.id),
  );

  licensesApi.patch(
    '/licenses/:id',
    {
      permission: 'customers:write',
      operationId: 'updateLicense',
      summary: 'Update a license',
      description:
        "Changes any of the terms; fields left out keep their value. status 'revoked' revokes, 'active' restores. seats below the holder's developer tokens is refused (400).",
      params: apiV1IdParams,
      body: apiV1UpdateLicenseInput,
      answer: apiV1License,
    },
    async (request) => lastingLicenses.updateLicense(ctx, request.principal, request.params.id, request.body),
  );

  licensesApi.delete(
    '/licenses/:id',
    {
      permission: 'customers:write',
      operationId: 'revokeLicense',
      summary: 'Revoke a license',
      description: "The holder's next Composer request is refused. Revoking a revoked license answers it unchanged.",
      params: apiV1IdParams,
      answer: apiV1License,
    },
    async (request) => lastingLicenses.revokeLicense(ctx, request.principal, request.params.id),
  );

  analyticsApi.get(
    '/analytics',
    {
      permission: 'analytics:read',
      operationId: 'getAnalytics',
      summary: 'Get analytics',
      description:
        'The Dashboard’s sales figures: amounts in cents of paid payments (refunds and lost disputes deducted), ' +
        'in the currency named in meta.currency; monthly is the current calendar month (UTC). totalCustomers ' +
        'counts buyers (distinct e-mails that paid); List customers lists every license holder, those you ' +
        'licensed by hand or through this API included, so it may hold more.',
      answer: apiV1Analytics,
    },
    async (request) => {
      const { data, period, currency } = await apiV1.getApiAnalytics(ctx, request.principal.sellerId);
      return withMeta(data, { period, currency });
    },
  );

  tokensApi.get(
    '/tokens',
    {
      permission: 'tokens:read',
      operationId: 'listApiTokens',
      summary: 'List API tokens',
      answer: z.array(apiV1Token),
    },
    async (request) => apiTokens.listApiTokens(ctx, request.principal.sellerId),
  );

  tokensApi.post(
    '/tokens',
    {
      permission: 'tokens:write',
      operationId: 'createApiToken',
      summary: 'Create an API token',
      description: 'The token is in the answer once. A token can only grant permissions it holds itself.',
      headers: idempotencyHeader,
      body: apiV1CreateTokenInput,
      answer: apiV1CreatedToken,
      status: 201,
    },
    async (request) => apiTokens.createApiToken(ctx, request.principal, request.body),
  );

  tokensApi.delete(
    '/tokens/:id',
    {
      permission: 'tokens:write',
      operationId: 'deleteApiToken',
      summary: 'Delete an API token',
      description: 'Permanent: the token is refused from its next request on.',
      params: apiV1IdParams,
      answer: apiV1Token,
    },
    async (request) => apiTokens.deleteApiToken(ctx, request.principal, request.params.id),
  );

  tokensApi.get(
    '/audit-events',
    {
      permission: 'tokens:read',
      operationId: 'listAuditEvents',
      summary: 'List audit events',
      description:
        'API token creation and deletion and every license change, newest first: who (a session, or a token id masked), what, when.',
      querystring: auditEventQuery,
      answer: z.array(auditEventSchema),
    },
    async (request) => {
      const { limit = 50, before } = request.query;
      return listAuditEvents(ctx, request.principal.sellerId, { limit, before: before ? new Date(before) : undefined });
    },
  );
}

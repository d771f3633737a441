import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
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
import { createdResponses, envelope, okResponses } from './envelope.js';
import { idempotencyHeader } from './openapi.js';

// API v1 (registered under /api/v1). Each route names its permission, its tag in the OpenAPI document, and its
// schemas; it parses, calls a service and wraps the answer in the envelope.

export async function apiV1Routes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();

  // Packages
  api.get(
    '/packages',
    {
      config: { apiPermission: 'packages:read' },
      schema: {
        tags: ['Packages'],
        operationId: 'listPackages',
        summary: 'List packages',
        description:
          'Every package you own. pricingType, priceCents and currency are those of the first active pricing tier; ' +
          'purchaseUrl and directPurchaseUrl sell it; all are null while the package is inactive or has no active tier.',
        response: okResponses(z.array(apiV1Package)),
      },
    },
    async (request) => envelope(await apiV1.listApiPackages(ctx, request.principal.sellerId)),
  );

  api.get(
    '/packages/:id',
    {
      config: { apiPermission: 'packages:read' },
      schema: {
        tags: ['Packages'],
        operationId: 'getPackage',
        summary: 'Get a package',
        params: apiV1IdParams,
        response: okResponses(apiV1Package),
      },
    },
    async (request) => envelope(await apiV1.getApiPackage(ctx, request.principal.sellerId, request.params.id)),
  );

  api.post(
    '/packages/:id/purchase-links',
    {
      config: { apiPermission: 'packages:read' },
      schema: {
        tags: ['Packages'],
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
        response: okResponses(purchaseLinksSchema),
      },
    },
    async (request) =>
      envelope(
        await apiV1.createApiPurchaseLinks(ctx, request.principal.sellerId, request.params.id, request.body ?? {}),
      ),
  );

  api.post(
    '/packages',
    {
      config: { apiPermission: 'packages:write' },
      schema: {
        tags: ['Packages'],
        operationId: 'createPackage',
        summary: 'Create a package',
        description:
          'Turns one of your code-host repositories (with a composer.json) into a package and starts its sync: ' +
          'give `githubRepoId` and `packageName`, or `repositoryUrl` for any git server (HTTPS with `credentials`, or ' +
          'SSH: the answer’s `deployKey` is to be added to the repository read-only, then refresh the package).',
        headers: idempotencyHeader,
        body: apiV1CreatePackageInput,
        response: createdResponses(apiV1Package),
      },
    },
    async (request, reply) =>
      reply.status(201).send(envelope(await apiV1.createApiPackage(ctx, request.principal, request.body))),
  );

  api.patch(
    '/packages/:id',
    {
      config: { apiPermission: 'packages:write' },
      schema: {
        tags: ['Packages'],
        operationId: 'updatePackage',
        summary: 'Update a package',
        params: apiV1IdParams,
        body: apiV1UpdatePackageInput,
        response: okResponses(apiV1Package),
      },
    },
    async (request) => envelope(await apiV1.updateApiPackage(ctx, request.principal, request.params.id, request.body)),
  );

  api.delete(
    '/packages/:id',
    {
      config: { apiPermission: 'packages:write' },
      schema: {
        tags: ['Packages'],
        operationId: 'deletePackage',
        summary: 'Delete a package',
        description: 'Deletes the package, its versions and every license of it.',
        params: apiV1IdParams,
        response: okResponses(apiV1DeletedSchema),
      },
    },
    async (request) => {
      await apiV1.deleteApiPackage(ctx, request.principal, request.params.id);
      return envelope({ id: request.params.id, deleted: true as const });
    },
  );

  // Customers
  api.get(
    '/customers',
    {
      config: { apiPermission: 'customers:read' },
      schema: {
        tags: ['Customers'],
        operationId: 'listCustomers',
        summary: 'List customers',
        description:
          'Every license holder by e-mail (buyers, and those you licensed by hand or through this API), with the ' +
          'packages each holds, newest holder first, a page at a time: limit holders (100 unless asked, at most ' +
          '500) and, in meta.nextCursor, the cursor of the next page (null on the last). Analytics’ ' +
          'totalCustomers counts buyers only.',
        querystring: apiV1PageQuery,
        response: okResponses(z.array(apiV1Customer)),
      },
    },
    async (request) => {
      const page = await apiV1.listApiCustomers(ctx, request.principal.sellerId, request.query);
      return envelope(page.customers, { nextCursor: page.nextCursor });
    },
  );

  api.post(
    '/customers/regenerate-token',
    {
      config: { apiPermission: 'customers:write' },
      schema: {
        tags: ['Customers'],
        operationId: 'regenerateCustomerToken',
        summary: "Regenerate a customer's Composer token",
        description: 'The old token stops working at once. The new one is e-mailed unless sendEmail is false.',
        headers: idempotencyHeader,
        body: apiV1RegenerateTokenInput,
        response: okResponses(apiV1RegeneratedToken),
      },
    },
    async (request) => envelope(await apiV1.regenerateHolderToken(ctx, request.principal, request.body)),
  );

  // Licenses
  api.get(
    '/licenses',
    {
      config: { apiPermission: 'customers:read' },
      schema: {
        tags: ['Licenses'],
        operationId: 'listLicenses',
        summary: 'List licenses',
        description:
          'Your licenses, newest first, of one package, product or holder when asked, a page at a time: limit ' +
          'licenses (100 unless asked, at most 500) and, in meta.nextCursor, the cursor of the next page (null on ' +
          'the last).',
        querystring: apiV1LicenseQuery,
        response: okResponses(z.array(apiV1License)),
      },
    },
    async (request) => {
      const page = await lastingLicenses.listLicensesPage(ctx, request.principal.sellerId, request.query);
      return envelope(page.licenses, { nextCursor: page.nextCursor });
    },
  );

  api.post(
    '/licenses',
    {
      config: { apiPermission: 'customers:write' },
      schema: {
        tags: ['Licenses'],
        operationId: 'createLicense',
        summary: 'Create a license',
        description:
          'Licenses a package (packageId), several packages at once (packageIds: one license each) or a product (productId: one license covering every package in it, including ones added later) to an e-mail address; send exactly one of the three. A license the holder already has for a package or product takes the new terms. Everything is written in one transaction (a bad id in packageIds writes nothing) and the holder gets one branded e-mail listing every package, unless sendEmail is false. expiresAt null never expires; downloadLimit null is unlimited; endMode says what ends at expiry; versionConstraint (a Composer constraint, up to 200 characters) and minimumStability (stable, RC, beta, alpha or dev, the default) say which versions; seats (null: unlimited) caps the holder’s developer tokens and is refused below the ones they already have. The answer carries the licenses, the repository URL, the setup commands and, for a new holder, their Composer token.',
        headers: idempotencyHeader,
        body: apiV1CreateLicenseInput,
        response: createdResponses(apiV1IssuedLicense),
      },
    },
    async (request, reply) => {
      const actor = request.principal;
      const sellerUser = organizationOf(actor);
      const { packageId, packageIds, productId, ...terms } = request.body;
      const issued = await issueLicenses(ctx, sellerUser, actor, { packageId, packageIds, productId }, terms);
      return reply.status(201).send(envelope(issued));
    },
  );

  api.get(
    '/licenses/:id',
    {
      config: { apiPermission: 'customers:read' },
      schema: {
        tags: ['Licenses'],
        operationId: 'getLicense',
        summary: 'Get a license',
        params: apiV1IdParams,
        response: okResponses(apiV1License),
      },
    },
    async (request) => envelope(await lastingLicenses.getLicense(ctx, request.principal.sellerId, request.params.id)),
  );

  api.patch(
    '/licenses/:id',
    {
      config: { apiPermission: 'customers:write' },
      schema: {
        tags: ['Licenses'],
        operationId: 'updateLicense',
        summary: 'Update a license',
        description:
          "Changes any of the terms; fields left out keep their value. status 'revoked' revokes, 'active' restores. seats below the holder's developer tokens is refused (400).",
        params: apiV1IdParams,
        body: apiV1UpdateLicenseInput,
        response: okResponses(apiV1License),
      },
    },
    async (request) =>
      envelope(await lastingLicenses.updateLicense(ctx, request.principal, request.params.id, request.body)),
  );

  api.delete(
    '/licenses/:id',
    {
      config: { apiPermission: 'customers:write' },
      schema: {
        tags: ['Licenses'],
        operationId: 'revokeLicense',
        summary: 'Revoke a license',
        description: "The holder's next Composer request is refused. Revoking a revoked license answers it unchanged.",
        params: apiV1IdParams,
        response: okResponses(apiV1License),
      },
    },
    async (request) => envelope(await lastingLicenses.revokeLicense(ctx, request.principal, request.params.id)),
  );

  // Analytics
  api.get(
    '/analytics',
    {
      config: { apiPermission: 'analytics:read' },
      schema: {
        tags: ['Analytics'],
        operationId: 'getAnalytics',
        summary: 'Get analytics',
        description:
          'The Dashboard’s sales figures: amounts in cents of paid payments (refunds and lost disputes deducted), ' +
          'in the currency named in meta.currency; monthly is the current calendar month (UTC). totalCustomers ' +
          'counts buyers (distinct e-mails that paid); List customers lists every license holder, those you ' +
          'licensed by hand or through this API included, so it may hold more.',
        response: okResponses(apiV1Analytics),
      },
    },
    async (request) => {
      const { data, period, currency } = await apiV1.getApiAnalytics(ctx, request.principal.sellerId);
      return envelope(data, { period, currency });
    },
  );

  // Tokens
  api.get(
    '/tokens',
    {
      config: { apiPermission: 'tokens:read' },
      schema: {
        tags: ['Tokens'],
        operationId: 'listApiTokens',
        summary: 'List API tokens',
        response: okResponses(z.array(apiV1Token)),
      },
    },
    async (request) => envelope(await apiTokens.listApiTokens(ctx, request.principal.sellerId)),
  );

  api.post(
    '/tokens',
    {
      config: { apiPermission: 'tokens:write' },
      schema: {
        tags: ['Tokens'],
        operationId: 'createApiToken',
        summary: 'Create an API token',
        description: 'The token is in the answer once. A token can only grant permissions it holds itself.',
        headers: idempotencyHeader,
        body: apiV1CreateTokenInput,
        response: createdResponses(apiV1CreatedToken),
      },
    },
    async (request, reply) =>
      reply.status(201).send(envelope(await apiTokens.createApiToken(ctx, request.principal, request.body))),
  );

  api.delete(
    '/tokens/:id',
    {
      config: { apiPermission: 'tokens:write' },
      schema: {
        tags: ['Tokens'],
        operationId: 'deleteApiToken',
        summary: 'Delete an API token',
        description: 'Permanent: the token is refused from its next request on.',
        params: apiV1IdParams,
        response: okResponses(apiV1Token),
      },
    },
    async (request) => envelope(await apiTokens.deleteApiToken(ctx, request.principal, request.params.id)),
  );

  api.get(
    '/audit-events',
    {
      config: { apiPermission: 'tokens:read' },
      schema: {
        tags: ['Tokens'],
        operationId: 'listAuditEvents',
        summary: 'List audit events',
        description:
          'API token creation and deletion and every license change, newest first: who (a session, or a token id masked), what, when.',
        querystring: auditEventQuery,
        response: okResponses(z.array(auditEventSchema)),
      },
    },
    async (request) => {
      const { limit = 50, before } = request.query;
      return envelope(
        await listAuditEvents(ctx, request.principal.sellerId, {
          limit,
          before: before ? new Date(before) : undefined,
        }),
      );
    },
  );
}

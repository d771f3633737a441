import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { productPurchaseLinksSchema, purchaseLinksInput } from '../../../contract/api-v1.js';
import {
  apiV1CreateProductInput,
  apiV1UpdateProductInput,
  productIdParams,
  productSchema,
} from '../../../contract/products.js';
import type { AppContext } from '../../context.js';
import * as products from '../products/products.service.js';
import { createProductPurchaseLinks } from '../sales/product-purchase-links.service.js';
import { createdResponses, envelope, okResponses } from './envelope.js';
import { idempotencyHeader } from './openapi.js';

// API v1: products (issue 31), a seller's named sets of packages. A license of a product (POST /licenses with
// productId) covers every package in it as the product is at each request.

const deletedProduct = z.object({ id: z.string(), deleted: z.literal(true) });

export async function productsV1Routes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/products',
    {
      config: { apiPermission: 'packages:read' },
      schema: {
        tags: ['Products'],
        operationId: 'listProducts',
        summary: 'List products',
        description: 'Every product you made, with its packages and how many of its licenses are active.',
        response: okResponses(z.array(productSchema)),
      },
    },
    async (request) => envelope(await products.listProducts(ctx, request.principal.sellerId)),
  );

  api.post(
    '/products',
    {
      config: { apiPermission: 'packages:write' },
      schema: {
        tags: ['Products'],
        operationId: 'createProduct',
        summary: 'Create a product',
        description:
          'name (1–100 characters, unique among your products), optional description (up to 1000), and packageIds: ' +
          'at least one of your packages, each once. License it with POST /licenses and productId.',
        headers: idempotencyHeader,
        body: apiV1CreateProductInput,
        response: createdResponses(productSchema),
      },
    },
    async (request, reply) =>
      reply.status(201).send(envelope(await products.createProduct(ctx, request.principal, request.body))),
  );

  api.get(
    '/products/:productId',
    {
      config: { apiPermission: 'packages:read' },
      schema: {
        tags: ['Products'],
        operationId: 'getProduct',
        summary: 'Get a product',
        params: productIdParams,
        response: okResponses(productSchema),
      },
    },
    async (request) => envelope(await products.getProduct(ctx, request.principal.sellerId, request.params.productId)),
  );

  api.post(
    '/products/:productId/purchase-links',
    {
      config: { apiPermission: 'packages:read' },
      schema: {
        tags: ['Products'],
        operationId: 'createProductPurchaseLinks',
        summary: 'Create purchase links for a product',
        description:
          'The links of createPurchaseLinks for a product: its purchase page, a direct buy link (the purchase page ' +
          'with the tier, e-mail and return addresses filled in) and an embed code, on your repository host; one ' +
          'purchase gives one license covering every package in the product. Nothing is charged or recorded until a ' +
          'buyer clicks Buy. Errors: 404 NOT_FOUND for an unknown product or tier; 409 CONFLICT while the product ' +
          'has no prices or (with payments on) you have no payout account that can take payments; 400 ' +
          'VALIDATION_FAILED for a bad e-mail, return address or a currency other than the tier’s.',
        params: productIdParams,
        body: purchaseLinksInput,
        response: okResponses(productPurchaseLinksSchema),
      },
    },
    async (request) =>
      envelope(
        await createProductPurchaseLinks(ctx, request.principal.sellerId, request.params.productId, request.body ?? {}),
      ),
  );

  api.patch(
    '/products/:productId',
    {
      config: { apiPermission: 'packages:write' },
      schema: {
        tags: ['Products'],
        operationId: 'updateProduct',
        summary: 'Update a product',
        description:
          'Fields left out keep their value; packageIds replaces the set. Licenses of the product cover a package ' +
          'added here from the holder’s next request, and a removed one no more.',
        params: productIdParams,
        body: apiV1UpdateProductInput,
        response: okResponses(productSchema),
      },
    },
    async (request) =>
      envelope(await products.updateProduct(ctx, request.principal, request.params.productId, request.body)),
  );

  api.delete(
    '/products/:productId',
    {
      config: { apiPermission: 'packages:write' },
      schema: {
        tags: ['Products'],
        operationId: 'deleteProduct',
        summary: 'Delete a product',
        description:
          'Refused with 409 while a license of the product is active: revoke those first. Its packages stay.',
        params: productIdParams,
        response: okResponses(deletedProduct),
      },
    },
    async (request) => {
      await products.deleteProduct(ctx, request.principal, request.params.productId);
      return envelope({ id: request.params.productId, deleted: true as const });
    },
  );
}

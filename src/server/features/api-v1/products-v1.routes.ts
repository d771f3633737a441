import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { apiV1DeletedSchema, productPurchaseLinksSchema, purchaseLinksInput } from '../../../contract/api-v1.js';
import {
  apiV1CreateProductInput,
  apiV1UpdateProductInput,
  productIdParams,
  productSchema,
} from '../../../contract/products.js';
import type { AppContext } from '../../context.js';
import * as products from '../products/products.service.js';
import { createProductPurchaseLinks } from '../sales/product-purchase-links.service.js';
import { apiV1Operations, deletedAnswer } from './api-v1-operations.js';
import { idempotencyHeader } from './openapi.js';

// API v1: products (issue 31), a seller's named sets of packages. A license of a product (POST /licenses with
// productId) covers every package in it as the product is at each request.

export async function productsV1Routes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const productsApi = apiV1Operations(app, 'Products');

  productsApi.get(
    '/products',
    {
      permission: 'packages:read',
      operationId: 'listProducts',
      summary: 'List products',
      description: 'Every product you made, with its packages and how many of its licenses are active.',
      answer: z.array(productSchema),
    },
    async (request) => products.listProducts(ctx, request.principal.sellerId),
  );

  productsApi.post(
    '/products',
    {
      permission: 'packages:write',
      operationId: 'createProduct',
      summary: 'Create a product',
      description:
        'name (1–100 characters, unique among your products), optional description (up to 1000), and packageIds: ' +
        'at least one of your packages, each once. License it with POST /licenses and productId.',
      headers: idempotencyHeader,
      body: apiV1CreateProductInput,
      answer: productSchema,
      status: 201,
    },
    async (request) => products.createProduct(ctx, request.principal, request.body),
  );

  productsApi.get(
    '/products/:productId',
    {
      permission: 'packages:read',
      operationId: 'getProduct',
      summary: 'Get a product',
      params: productIdParams,
      answer: productSchema,
    },
    async (request) => products.getProduct(ctx, request.principal.sellerId, request.params.productId),
  );

  productsApi.post(
    '/products/:productId/purchase-links',
    {
      permission: 'packages:read',
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
      answer: productPurchaseLinksSchema,
    },
    async (request) =>
      createProductPurchaseLinks(ctx, request.principal.sellerId, request.params.productId, request.body ?? {}),
  );

  productsApi.patch(
    '/products/:productId',
    {
      permission: 'packages:write',
      operationId: 'updateProduct',
      summary: 'Update a product',
      description:
        'Fields left out keep their value; packageIds replaces the set. Licenses of the product cover a package ' +
        'added here from the holder’s next request, and a removed one no more.',
      params: productIdParams,
      body: apiV1UpdateProductInput,
      answer: productSchema,
    },
    async (request) => products.updateProduct(ctx, request.principal, request.params.productId, request.body),
  );

  productsApi.delete(
    '/products/:productId',
    {
      permission: 'packages:write',
      operationId: 'deleteProduct',
      summary: 'Delete a product',
      description: 'Refused with 409 while a license of the product is active: revoke those first. Its packages stay.',
      params: productIdParams,
      answer: apiV1DeletedSchema,
    },
    async (request) => {
      await products.deleteProduct(ctx, request.principal, request.params.productId);
      return deletedAnswer(request.params.productId);
    },
  );
}

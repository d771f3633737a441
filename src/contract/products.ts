import { z } from 'zod';
import { entityId } from './ids.js';

// Products (issue 31): a seller's named set of their own packages. A license or a price for a product covers every
// package in it, as the product is at each Composer request (a package added later is covered at once).

export const PRODUCT_NAME_MAX_LENGTH = 100;
export const PRODUCT_DESCRIPTION_MAX_LENGTH = 1000;
/** More packages than any seller sells as one product; bounds the request before it is read. */
export const PRODUCT_PACKAGES_MAX = 200;

export const productMessages = {
  notFound: 'Product not found',
  nameRequired: 'name is required',
  nameTooLong: `name has at most ${PRODUCT_NAME_MAX_LENGTH} characters`,
  nameTaken: 'You already have a product with this name',
  descriptionTooLong: `description has at most ${PRODUCT_DESCRIPTION_MAX_LENGTH} characters`,
  packagesEmpty: 'packageIds must name at least one package',
  packageTwice: 'packageIds names a package twice',
  packageUnknown: 'packageIds names a package that is not yours',
  nothingToUpdate: 'Send at least one of name, description or packageIds',
  hasLicenses: 'This product has licenses: revoke them before deleting the product',
} as const;

const productName = z
  .string({ error: productMessages.nameRequired })
  .trim()
  .min(1, productMessages.nameRequired)
  .max(PRODUCT_NAME_MAX_LENGTH, productMessages.nameTooLong);
const productDescription = z
  .string()
  .trim()
  .max(PRODUCT_DESCRIPTION_MAX_LENGTH, productMessages.descriptionTooLong)
  .nullable()
  .optional();
/** Ids are checked by the service (unknown, another seller's, twice) so that the answer names packageIds. */
const productPackageIds = z.array(z.string().max(200)).max(PRODUCT_PACKAGES_MAX);

/** POST /api/products and /api/v1/products. */
export const createProductInput = z.object({
  name: productName,
  description: productDescription,
  packageIds: productPackageIds,
});
export type CreateProductInput = z.infer<typeof createProductInput>;

/** PATCH /api/products/{id} and /api/v1/products/{id}: fields left out keep their value; packageIds replaces the set. */
export const updateProductInput = createProductInput.partial();
export type UpdateProductInput = z.infer<typeof updateProductInput>;

export const productIdParams = z.object({ productId: entityId });

export const productPackage = z.object({ id: z.string(), name: z.string() });

export const productSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  /** Its packages, by name. */
  packages: z.array(productPackage),
  /** Licenses of the product that still give access. */
  activeLicenses: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Product = z.infer<typeof productSchema>;
export const productList = z.array(productSchema);

/** API v1's bodies: the same rules, with the examples the reference shows (PACKAGE_ID: one of your packages). */
export const apiV1CreateProductInput = createProductInput.meta({
  examples: [{ name: 'Suite', description: 'Every package of the suite', packageIds: ['PACKAGE_ID'] }],
});
export const apiV1UpdateProductInput = updateProductInput.meta({
  examples: [{ description: 'Every package of the suite, with updates for a year' }],
});

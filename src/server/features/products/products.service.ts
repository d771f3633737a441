import { isEntityId } from '../../../contract/ids.js';
import {
  type CreateProductInput,
  type Product,
  productMessages,
  type UpdateProductInput,
} from '../../../contract/products.js';
import type { AppContext } from '../../context.js';
import type { Database } from '../../db/client.js';
import { AppError } from '../../http/errors.js';
import type { Principal } from '../../http/principal.js';
import { recordAuditEvent } from '../shared/audit/audit.service.js';
import type { ProductRow } from './products.repository.js';
import * as repository from './products.repository.js';

// Products (issue 31): a seller groups their own packages under a name. This domain writes products and
// product_packages; a license of a product (licenses domain) covers the product's packages as they are at each request.

type Reader = Pick<Database, 'select'>;

/** One of the seller's products with its packages' ids and names; undefined for another seller's or an unknown id. */
export async function findOwnedProduct(
  db: Reader,
  sellerId: string,
  productId: string,
): Promise<(ProductRow & { packages: { id: string; name: string }[] }) | undefined> {
  if (!isEntityId(productId)) return undefined;
  const row = await repository.findProductOfSeller(db, sellerId, productId);
  if (!row) return undefined;
  return { ...row, packages: await productPackagesOf(db, [row.id]).then((byId) => byId.get(row.id) ?? []) };
}

/** The seller's product, or 404. */
export async function getOwnedProduct(ctx: Pick<AppContext, 'db'>, sellerId: string, productId: string) {
  const product = await findOwnedProduct(ctx.db, sellerId, productId);
  if (!product) throw new AppError('NOT_FOUND', productMessages.notFound);
  return product;
}

async function productPackagesOf(
  db: Reader,
  productIds: string[],
): Promise<Map<string, { id: string; name: string }[]>> {
  const byProduct = new Map<string, { id: string; name: string }[]>();
  if (productIds.length === 0) return byProduct;
  const rows = await repository.selectPackagesOfProducts(db, productIds);
  for (const row of rows) {
    const list = byProduct.get(row.productId) ?? [];
    list.push({ id: row.id, name: row.name });
    byProduct.set(row.productId, list);
  }
  return byProduct;
}

async function activeLicenseCounts(db: Reader, productIds: string[]): Promise<Map<string, number>> {
  if (productIds.length === 0) return new Map();
  const rows = await repository.countActiveLicensesOfProducts(db, productIds);
  return new Map(rows.map((row) => [row.productId!, Number(row.total)]));
}

async function presentProducts(db: Reader, rows: ProductRow[]): Promise<Product[]> {
  const ids = rows.map((row) => row.id);
  const [packagesById, licenses] = await Promise.all([productPackagesOf(db, ids), activeLicenseCounts(db, ids)]);
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    description: row.description,
    packages: packagesById.get(row.id) ?? [],
    activeLicenses: licenses.get(row.id) ?? 0,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  }));
}

export async function listProducts(ctx: AppContext, sellerId: string): Promise<Product[]> {
  const rows = await repository.selectProductsOfSeller(ctx.db, sellerId);
  return presentProducts(ctx.db, rows);
}

export async function getProduct(ctx: AppContext, sellerId: string, productId: string): Promise<Product> {
  const product = await getOwnedProduct(ctx, sellerId, productId);
  const [presented] = await presentProducts(ctx.db, [product]);
  return presented!;
}

/** The ids, checked: at least one, none twice, every one a package of the seller's. Read before any write. */
async function checkedPackageIds(ctx: AppContext, sellerId: string, packageIds: string[]): Promise<string[]> {
  if (packageIds.length === 0) throw new AppError('VALIDATION_FAILED', productMessages.packagesEmpty);
  if (new Set(packageIds).size !== packageIds.length) {
    throw new AppError('VALIDATION_FAILED', productMessages.packageTwice);
  }
  if (!packageIds.every(isEntityId)) throw new AppError('VALIDATION_FAILED', productMessages.packageUnknown);
  const owned = await repository.selectOwnedPackageIds(ctx.db, sellerId, packageIds);
  if (owned.length !== packageIds.length) throw new AppError('VALIDATION_FAILED', productMessages.packageUnknown);
  return packageIds;
}

async function assertNameFree(ctx: AppContext, sellerId: string, name: string, exceptId?: string): Promise<void> {
  const taken = await repository.findProductNamed(ctx.db, sellerId, name);
  if (taken && taken.id !== exceptId) {
    throw new AppError('CONFLICT', productMessages.nameTaken, { suggestion: 'Choose another name for the product.' });
  }
}

export async function createProduct(ctx: AppContext, actor: Principal, input: CreateProductInput): Promise<Product> {
  const sellerId = actor.sellerId;
  const packageIds = await checkedPackageIds(ctx, sellerId, input.packageIds);
  await assertNameFree(ctx, sellerId, input.name);
  const now = ctx.clock.now();
  const created = await ctx.db.transaction(async (tx) => {
    const row = await repository.insertProduct(tx, {
      ownerId: sellerId,
      name: input.name,
      description: input.description || null,
      createdAt: now,
      updatedAt: now,
    });
    await repository.insertProductPackages(tx, row.id, packageIds, now);
    await recordAuditEvent(tx, ctx, actor, {
      action: 'product.created',
      targetType: 'product',
      targetId: row.id,
      details: { name: row.name, packageIds },
    });
    return row;
  });
  const [presented] = await presentProducts(ctx.db, [created]);
  return presented!;
}

/**
 * Renames, describes or changes the packages of a product. Licenses of the product cover the new set from the
 * holder's next request: an added package at once, a removed one no more.
 */
export async function updateProduct(
  ctx: AppContext,
  actor: Principal,
  productId: string,
  input: UpdateProductInput,
): Promise<Product> {
  const sellerId = actor.sellerId;
  const current = await getOwnedProduct(ctx, sellerId, productId);
  if (input.name === undefined && input.description === undefined && input.packageIds === undefined) {
    throw new AppError('VALIDATION_FAILED', productMessages.nothingToUpdate);
  }
  const packageIds =
    input.packageIds === undefined ? undefined : await checkedPackageIds(ctx, sellerId, input.packageIds);
  if (input.name !== undefined) await assertNameFree(ctx, sellerId, input.name, current.id);
  const now = ctx.clock.now();
  const updated = await ctx.db.transaction(async (tx) => {
    const row = await repository.updateProductRow(tx, current.id, {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.description !== undefined ? { description: input.description || null } : {}),
      updatedAt: now,
    });
    if (packageIds) await replacePackages(tx, current.id, current.packages, packageIds, now);
    await recordAuditEvent(tx, ctx, actor, {
      action: 'product.updated',
      targetType: 'product',
      targetId: current.id,
      details: {
        name: row.name,
        changed: Object.keys(input).filter((key) => input[key as keyof UpdateProductInput] !== undefined),
      },
    });
    return row;
  });
  const [presented] = await presentProducts(ctx.db, [updated]);
  return presented!;
}

/** Only the difference is written: a package staying in the product keeps the date it was added. */
async function replacePackages(
  tx: Pick<Database, 'insert' | 'delete'>,
  productId: string,
  before: { id: string }[],
  after: string[],
  now: Date,
): Promise<void> {
  const had = new Set(before.map((pkg) => pkg.id));
  const wanted = new Set(after);
  const removed = [...had].filter((id) => !wanted.has(id));
  const added = after.filter((id) => !had.has(id));
  if (removed.length > 0) {
    await repository.deleteProductPackages(tx, productId, removed);
  }
  if (added.length > 0) {
    await repository.insertProductPackages(tx, productId, added, now);
  }
}

/**
 * Deletes a product. Refused while a license of it is active: deleting would end those holders' access without a
 * word to them; the seller revokes the licenses first (their ended licenses go with the product).
 */
export async function deleteProduct(ctx: AppContext, actor: Principal, productId: string): Promise<{ deleted: true }> {
  const product = await getOwnedProduct(ctx, actor.sellerId, productId);
  await ctx.db.transaction(async (tx) => {
    // Checked in the deleting transaction, with the product's row locked, so a license issued meanwhile is seen.
    await repository.lockProduct(tx, product.id);
    const active = (await activeLicenseCounts(tx, [product.id])).get(product.id) ?? 0;
    if (active > 0) {
      throw new AppError('CONFLICT', productMessages.hasLicenses, {
        suggestion: `Revoke its ${active} active license${active === 1 ? '' : 's'} on Management, then delete it.`,
      });
    }
    await repository.deleteProductRow(tx, product.id);
    await recordAuditEvent(tx, ctx, actor, {
      action: 'product.deleted',
      targetType: 'product',
      targetId: product.id,
      details: { name: product.name },
    });
  });
  return { deleted: true };
}

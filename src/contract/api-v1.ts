import { z } from 'zod';
import { apiTokenSchema, createApiTokenInput, createdApiTokenSchema } from './developer.js';
import { entityId } from './ids.js';
import {
  issuedLicense,
  issueLicenseInput,
  license,
  licenseMessages,
  licenseTargetInput,
  updateLicenseInput,
} from './licenses.js';
import {
  createPackageInput,
  gitCredentialsSchema,
  packageNameSchema,
  REPOSITORY_URL_MAX_LENGTH,
  updatePackageInput,
} from './packages.js';
import { purchaseLinkCheckoutFields, sellerSalesFigures } from './sales.js';
import { createWebhookEndpointInput, updateWebhookEndpointInput } from './webhooks.js';

// The public API v1 (spec admin-and-developer-platform §3, §6, §7; issue 16): what a seller's systems send to
// /api/v1 with `Authorization: Bearer pga_...` and what they get back. The routes declare these schemas, and
// the OpenAPI document at /api/docs/openapi.json is generated from them.
//
// Each request body carries one example (`.meta({ examples })`): the API reference builds its samples from it, so
// it must be a body the API accepts (issue 36: a generated `"expiresAt": ""` was refused). Ids and the webhook URL
// are placeholders in capitals (API_V1_EXAMPLE_PLACEHOLDERS) a reader replaces with their own, as the token.

/** The placeholders the examples use, and where the reader finds the value to put in their place. */
export const API_V1_EXAMPLE_PLACEHOLDERS = {
  PACKAGE_ID: 'the `id` of one of your packages in GET /api/v1/packages',
  TIER_ID: 'the `id` of one of the package’s `pricingTiers` in GET /api/v1/packages/{id}',
  REPOSITORY_ID:
    'the repository’s id on your code host: on GitHub its number; in the local repository folder its path there (`acme/widget.git`)',
  WEBHOOK_URL: 'the public https:// address of your own webhook receiver',
  GITLAB_ACCESS_TOKEN:
    'a GitLab project, group or personal access token with read_api and read_repository (baseUrl: your GitLab, left out for gitlab.com)',
  BITBUCKET_ACCESS_TOKEN:
    'a Bitbucket workspace or repository access token with Repositories: Read and Webhooks: Read and write',
} as const;

export const API_V1_PROVIDER = 'packgate';
/** Prices are in cents of this currency until sales say otherwise. */
export const API_V1_DEFAULT_CURRENCY = 'usd';
/** Idempotency keys are remembered this long (as Stripe's are). */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

/** Spec §3: the envelope of every answer. total: how many items `data` holds when it is a list. */
export const apiV1Meta = z.object({
  provider: z.string(),
  apiVersion: z.string(),
  total: z.number().int().optional(),
  /** The period figures cover (analytics): `all-time` plus the calendar month in `YYYY-MM`. */
  period: z.string().optional(),
  /** ISO 4217, lower case, for the money fields in `data`. */
  currency: z.string().optional(),
  /** A paged list's cursor for its next page (send it as `cursor`), null on the last page. */
  nextCursor: z.string().nullable().optional(),
});
export type ApiV1Meta = z.infer<typeof apiV1Meta>;

export function apiV1Envelope<T extends z.ZodType>(data: T) {
  return z.object({ success: z.literal(true), data, meta: apiV1Meta });
}

/** Errors wear the envelope too, with the app's error fields and a stable machine-readable code. */
export const apiV1ErrorSchema = z.object({
  success: z.literal(false),
  error: z.string(),
  message: z.string(),
  suggestion: z.string().optional(),
  status: z.number().int(),
  /** e.g. UNAUTHENTICATED, FORBIDDEN, NOT_FOUND, VALIDATION_FAILED, CONFLICT, RATE_LIMITED. */
  code: z.string(),
  meta: apiV1Meta,
  /** The request's id, also in the X-Request-Id header: quote it to support to find the request in the log. */
  requestId: z.string(),
});
export type ApiV1Error = z.infer<typeof apiV1ErrorSchema>;

/** Spec §3 pricing tier of a package. Empty until the package has prices. */
export const apiV1PricingTier = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  /** one_time or subscription. */
  pricingType: z.string(),
  /** Beyond the spec: a subscription's billing interval (month, year); null for one-time. */
  interval: z.string().nullable(),
  /** Beyond the spec: one-time: months of updates, after which the license freezes; null for subscriptions. */
  updateMonths: z.number().int().nullable(),
  priceCents: z.number().int(),
  currency: z.string(),
  trialDays: z.number().int(),
  isActive: z.boolean(),
});

/**
 * Spec §3 API v1 package. pricingType, priceCents and currency are those of the first active pricing tier (the
 * purchase page preselects it); purchaseUrl is the package's purchase page and directPurchaseUrl a link that starts
 * the checkout of that tier at once, both on the seller's repository host. They are null while the package is
 * inactive or has no active tier. pricingTiers lists every tier, active or not, in the seller's order.
 * downloadUrl: the dist zip of the newest tagged version on the seller's Composer repository (a license
 * holder's token is needed to fetch it); null before the first tag is synced.
 */
export const apiV1Package = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  isActive: z.boolean(),
  pricingType: z.string().nullable(),
  priceCents: z.number().int().nullable(),
  currency: z.string().nullable(),
  downloadUrl: z.string().nullable(),
  purchaseUrl: z.string().nullable(),
  directPurchaseUrl: z.string().nullable(),
  pricingTiers: z.array(apiV1PricingTier),
  /** Beyond the spec: where the package comes from and its sync state. */
  repository: z.string(),
  latestVersion: z.string().nullable(),
  syncStatus: z.string(),
  /** Any git server over SSH: the public deploy key to add to the repository, read only; null otherwise. */
  deployKey: z.string().nullable(),
  /** Any git server over SSH: the fingerprint (`SHA256:…`) of the server's host key, pinned when it was added. */
  sshHostKeyFingerprint: z.string().nullable(),
  createdAt: z.string(),
});
export type ApiV1Package = z.infer<typeof apiV1Package>;

/** The row id of the package, license or token a path names; a malformed one answers 404 as an unknown one. */
export const apiV1IdParams = z.object({ id: entityId });

/**
 * Spec §7 POST /api/v1/packages/{id}/purchase-links. tierId: an active tier of the package (default: the first);
 * customerEmail fills in the buyer's e-mail; successUrl and cancelUrl (http or https) are where Checkout returns
 * to (default: the success page and the purchase page on the seller's host). currency (beyond the spec): when
 * given, must be the tier's, else 400 VALIDATION_FAILED.
 */
export const purchaseLinksInput = z
  .object({
    tierId: z.string().max(200).optional(),
    customerEmail: z.string().max(320).optional(),
    ...purchaseLinkCheckoutFields.shape,
  })
  .meta({ examples: [{ customerEmail: 'buyer@example.com', successUrl: 'https://shop.example.com/thanks' }] });
/**
 * links.purchasePage: the package's purchase page on the seller's host with the tier preselected;
 * links.directCheckout: a GET link that opens the purchase page with the tier, e-mail and return addresses filled
 * in (signed by `sig`); opening it records nothing, the page's Buy button starts the checkout (issue 28: link
 * previews and mail scanners open links); links.embedCode: an HTML buy button for the seller's own site.
 * selectedTier: the id of the tier the links sell.
 */
export const purchaseLinksSchema = z.object({
  packageId: z.string(),
  packageName: z.string(),
  selectedTier: z.string().nullable(),
  links: z.object({ purchasePage: z.string(), directCheckout: z.string(), embedCode: z.string() }),
});
/** POST /api/v1/products/{productId}/purchase-links (issue 31): a package's links, naming the product. */
export const productPurchaseLinksSchema = z.object({
  productId: z.string(),
  productName: z.string(),
  selectedTier: z.string().nullable(),
  links: purchaseLinksSchema.shape.links,
});

/**
 * POST /api/v1/packages: a package from one of the seller's code-host repositories (`githubRepoId`, as the Add Package
 * dialog), or from any git server by its URL (`repositoryUrl`, issue 30 item 4): over HTTPS with `credentials`, over
 * SSH with the deploy key the answer carries (`deployKey`; the first sync waits until it is added, then refresh). With
 * a URL, the name comes from the repository's composer.json unless `packageName` is given.
 */
export const apiV1CreatePackageInput = createPackageInput
  .extend({
    githubRepoId: createPackageInput.shape.githubRepoId.optional(),
    packageName: packageNameSchema.optional(),
    repositoryUrl: z.string().trim().min(1).max(REPOSITORY_URL_MAX_LENGTH).optional(),
    credentials: gitCredentialsSchema.optional(),
  })
  .superRefine((input, context) => {
    if ((input.githubRepoId === undefined) === (input.repositoryUrl === undefined)) {
      context.addIssue({
        code: 'custom',
        path: ['repositoryUrl'],
        message: 'Give either githubRepoId (a connected repository) or repositoryUrl (any git server)',
      });
    }
    if (input.githubRepoId !== undefined && input.packageName === undefined) {
      context.addIssue({ code: 'custom', path: ['packageName'], message: 'Package name is required' });
    }
  })
  // One example: the reference's sample sends it (a URL's example would need a git server to answer).
  .meta({
    examples: [{ githubRepoId: 'REPOSITORY_ID', packageName: 'acme/widget', description: 'Widgets for Laravel' }],
  });
export type ApiV1CreatePackageInput = z.output<typeof apiV1CreatePackageInput>;
export const apiV1UpdatePackageInput = updatePackageInput.meta({
  examples: [{ description: 'Widgets for Laravel and Symfony' }],
});
export const apiV1DeletedSchema = z.object({ id: z.string(), deleted: z.literal(true) });

/** Spec §3 API v1 customer: one license holder by e-mail. */
export const apiV1CustomerPackage = z.object({
  packageName: z.string(),
  /** Null for a license of a product. */
  packageId: z.string().nullable(),
  /** active, expired (past its end; a frozen one still installs older versions) or revoked. */
  status: z.enum(['active', 'expired', 'revoked']),
  grantedAt: z.string(),
  expiresAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
});
export const apiV1Customer = z.object({
  /** The holder's id: the path of their named Composer tokens (/customers/{id}/tokens). */
  id: z.string(),
  email: z.string(),
  packages: z.array(apiV1CustomerPackage),
  totalActivePackages: z.number().int(),
  firstPurchaseDate: z.string().nullable(),
  lastActiveDate: z.string().nullable(),
});
export type ApiV1Customer = z.infer<typeof apiV1Customer>;

/** POST /api/v1/customers/regenerate-token: a new Composer token for the holder; the old one stops working. */
export const apiV1RegenerateTokenInput = z
  .object({
    email: z.string().max(320),
    /** Default true: e-mail the new token in the seller's brand. */
    sendEmail: z.boolean().optional(),
  })
  .meta({ examples: [{ email: 'buyer@example.com', sendEmail: false }] });
export const apiV1RegeneratedToken = z.object({
  email: z.string(),
  tokenIssuedAt: z.string(),
  emailSent: z.boolean(),
  /** The new token, shown once. */
  composerToken: z.string(),
  repositoryUrl: z.string(),
  setupCommands: z.array(z.string()),
});

/**
 * Spec §3 API v1 analytics: the Dashboard's sales figures (sales count paid payments, purchases and renewals), in the
 * seller's currency (meta.currency), and the number of active packages.
 */
export const apiV1Analytics = z.object({
  activePackages: z.number().int(),
  ...sellerSalesFigures.shape,
});

/** Paged lists (issue 34): `limit` rows per page, newest first; the next page starts after `meta.nextCursor`. */
export const API_V1_PAGE_DEFAULT = 100;
export const API_V1_PAGE_MAX = 500;
export const apiV1PageQuery = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(API_V1_PAGE_MAX)
    .default(API_V1_PAGE_DEFAULT)
    .meta({ description: `Rows per page, 1 to ${API_V1_PAGE_MAX}; ${API_V1_PAGE_DEFAULT} when left out.` }),
  cursor: z
    .string()
    .max(100)
    .optional()
    .meta({ description: 'The meta.nextCursor of the page before; left out for the first page.' }),
});
/** GET /api/v1/licenses filters, paged. */
export const apiV1LicenseQuery = apiV1PageQuery.extend({
  packageId: z.string().max(200).optional(),
  /** The licenses of one product (issue 31). */
  productId: z.string().max(200).optional(),
  email: z.string().max(320).optional(),
});
/**
 * POST /api/v1/licenses: the lasting-license terms plus what is licensed: packageId, packageIds (several packages in
 * one call: one license each, one e-mail, one transaction) or productId (issue 31). The e-mail is required here, in
 * the schema (so the OpenAPI document says so), with the spec's sentence when it is missing.
 */
export const apiV1CreateLicenseInput = issueLicenseInput
  .extend({
    ...licenseTargetInput.shape,
    email: z.string({ error: licenseMessages.emailRequired }).max(320),
  })
  .meta({
    examples: [
      {
        packageId: 'PACKAGE_ID',
        email: 'buyer@example.com',
        expiresAt: null,
        downloadLimit: null,
        endMode: 'updates',
        note: 'Order 1042',
        versionConstraint: '^1.0',
        minimumStability: 'stable',
        seats: 5,
        sendEmail: false,
      },
    ],
  });
/** PATCH /api/v1/licenses/{id}: the terms to change. */
export const apiV1UpdateLicenseInput = updateLicenseInput.meta({
  examples: [{ downloadLimit: 500, note: 'Renewed with order 1043' }],
});
export type ApiV1CreateLicenseInput = z.infer<typeof apiV1CreateLicenseInput>;

/**
 * One audit event: who (a person's session, or an API token shown masked, and the member who acted: the person
 * signed in, or the token's creator; named as they were at the time), what, when.
 */
export const auditEventSchema = z.object({
  id: z.string(),
  action: z.string(),
  actor: z.object({
    type: z.enum(['session', 'api_token']),
    tokenId: z.string().nullable(),
    member: z
      .object({ id: z.string(), label: z.string() })
      .nullable()
      .meta({ description: 'The member who acted (for an API token, its creator), or null when no member did.' }),
  }),
  targetType: z.string(),
  targetId: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
});
export type AuditEvent = z.infer<typeof auditEventSchema>;
export const AUDIT_EVENTS_PAGE_MAX = 200;
export const auditEventQuery = z.object({
  limit: z.coerce.number().int().min(1).max(AUDIT_EVENTS_PAGE_MAX).optional(),
  before: z.iso.datetime({ offset: true }).optional(),
});

/** POST /api/v1/tokens, with an example the reference's sample sends. */
export const apiV1CreateTokenInput = createApiTokenInput.meta({
  examples: [{ name: 'Shop integration', permissions: ['customers:read', 'customers:write'], expiresAt: null }],
});
/** POST and PATCH /api/v1/webhooks. */
export const apiV1CreateWebhookInput = createWebhookEndpointInput.meta({
  examples: [{ url: 'WEBHOOK_URL', events: ['license.created', 'purchase.completed'], description: 'Order system' }],
});
export const apiV1UpdateWebhookInput = updateWebhookEndpointInput.meta({
  examples: [{ events: ['license.created', 'license.revoked'], isEnabled: true }],
});

// Re-exported under the API's names so that route files import from one place.
export {
  apiTokenSchema as apiV1Token,
  createdApiTokenSchema as apiV1CreatedToken,
  issuedLicense as apiV1IssuedLicense,
  license as apiV1License,
};

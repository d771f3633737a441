import { z } from 'zod';
import { authUser } from './auth.js';
import { entityId } from './ids.js';
import { adminSalesFigures } from './sales.js';
import { subscriptionStatuses } from './subscriptions.js';

/** One row of the admin Users tab; userType is 'user' for sellers, as spec admin §3 names it. */
export const adminUserListItem = z.object({
  id: z.string(),
  email: z.string().nullable(),
  userType: z.enum(['admin', 'user']),
  createdAt: z.string(),
  githubUsername: z.string().nullable(),
  displayName: z.string().nullable(),
  /** The stored avatar, else the code host's avatar for the username, else null. */
  avatarUrl: z.string().nullable(),
  /** The computed platform subscription state (active, trial, trial_expired, ...), as the seller's own status call says. */
  subscriptionStatus: z.enum(subscriptionStatuses),
  /** The tier of the subscription record, null without one. */
  tier: z.string().nullable(),
  selectedTier: z.string().nullable(),
});
export type AdminUserListItem = z.infer<typeof adminUserListItem>;

export const adminUserList = z.array(adminUserListItem);

export const impersonateRequest = z.object({ userId: z.string().min(1) });

export const impersonationResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  /** Who the session now belongs to (the impersonated user, or the admin again after stopping). */
  user: authUser,
});
export type ImpersonationResponse = z.infer<typeof impersonationResponse>;

/** Platform figures for the admin Overview tab (spec admin §3). */
export const adminStats = z
  .object({
    totalUsers: z.number().int(),
    activePackages: z.number().int(),
  })
  // platformRevenue (dollars: collected fees plus paid platform invoices), totalSales and the rest of the money.
  .extend(adminSalesFigures.shape);
export type AdminStats = z.infer<typeof adminStats>;

/** The Cache Statistics card (spec admin §3). */
export const cacheStats = z.object({
  totalPackages: z.number().int(),
  /** Packages with at least one version, every one of which has its zip built. */
  cachedPackages: z.number().int(),
  /** Display text such as '1.2 MB'; '0 B' when nothing is cached. */
  cacheSize: z.string(),
  /** ISO time of the newest zip build, null when none is known. */
  lastUpdated: z.string().nullable(),
});
export type CacheStats = z.infer<typeof cacheStats>;

/** One row of the Package Cache Status list (spec admin §3). */
export const cachedPackage = z.object({
  id: z.string(),
  packageName: z.string(),
  isActive: z.boolean(),
  isCached: z.boolean(),
  cacheSize: z.string(),
  lastCached: z.string().nullable(),
  /** Why the code host refuses this package's code (issue 30 item 6); null while it works. Published versions still serve. */
  accessProblem: z.string().nullable().default(null),
});
export type CachedPackage = z.infer<typeof cachedPackage>;

export const cachedPackageList = z.array(cachedPackage);

export const cachePackageParams = z.object({ id: entityId });

/** A cache task was started; its progress arrives as task-progress events with this taskId. */
export const cacheTaskResponse = z.object({ taskId: z.string() });
export type CacheTaskResponse = z.infer<typeof cacheTaskResponse>;

export const cacheRefreshAllResponse = cacheTaskResponse.extend({ packageCount: z.number().int() });
export type CacheRefreshAllResponse = z.infer<typeof cacheRefreshAllResponse>;

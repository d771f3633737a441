import { z } from 'zod';
import { hostRepositoryFields } from './code-hosts.js';
import { COMPOSER_PACKAGE_NAME, COMPOSER_PACKAGE_NAME_MAX_LENGTH } from './composer.js';
import { entityId } from './ids.js';

// Packages (spec seller-app §3, §7): a code-host repository turned into a Composer package, its versions
// read from the repository's tags and branches by a background sync.

/** Composer's own package-name rule: one pattern for the form, the API and the Composer repository. */
export const COMPOSER_NAME_PATTERN = COMPOSER_PACKAGE_NAME;
export const PACKAGE_NAME_MAX_LENGTH = COMPOSER_PACKAGE_NAME_MAX_LENGTH;
export const PACKAGE_DESCRIPTION_MAX_LENGTH = 1000;

export const INVALID_PACKAGE_NAME_MESSAGE =
  'Package name must look like vendor/package: lower-case letters, digits, and _ . - between them';

export const packageNameSchema = z
  .string()
  .trim()
  .min(1, 'Package name is required')
  // zod runs every check unless one aborts: an over-long name must not reach the pattern.
  .max(PACKAGE_NAME_MAX_LENGTH, { abort: true })
  .regex(COMPOSER_NAME_PATTERN, INVALID_PACKAGE_NAME_MESSAGE);

const descriptionSchema = z
  .string()
  .trim()
  .max(PACKAGE_DESCRIPTION_MAX_LENGTH)
  .nullish()
  .transform((value) => (value ? value : null));

/** GET /api/github/repositories: one repository of the seller's code host. */
export const codeHostRepositorySchema = z.object({
  /** The code host's id of the repository: GitHub's numeric id as a string, the local folder's relative path. */
  githubId: z.string(),
  ...hostRepositoryFields,
});
export type CodeHostRepository = z.infer<typeof codeHostRepositorySchema>;
export const codeHostRepositoryList = z.array(codeHostRepositorySchema);

/** POST /api/repositories (spec §3 create payload). */
export const createPackageInput = z.object({
  githubRepoId: z.union([z.string().trim().min(1).max(300), z.number().int().nonnegative()]).transform(String),
  /** The code-host connection (GET /api/code-hosts) the repository is read through; the default host when left out. */
  connectionId: entityId.optional(),
  /** Informational: the package takes the repository's current name from the code host. */
  fullName: z.string().trim().max(300).optional(),
  packageName: packageNameSchema,
  description: descriptionSchema,
  isActive: z.boolean().default(true),
});
export type CreatePackageInput = z.input<typeof createPackageInput>;

export const REPOSITORY_URL_MAX_LENGTH = 500;

/** The user name and password (or access token) a git server asks for over HTTPS; never returned once saved. */
export const gitCredentialsSchema = z.object({
  username: z.string().trim().min(1, 'credentials.username is required').max(200),
  password: z.string().min(1, 'credentials.password is required').max(2000),
});

/**
 * POST /api/repositories/from-url (and POST /api/v1/packages with `repositoryUrl`): a package from any git server by
 * its URL (issue 30 item 4). HTTPS with `credentials`, or SSH (`ssh://git@host/path.git` or `git@host:path.git`) with a
 * deploy key Packgate generates, answered as `deployKey`. The name comes from composer.json unless given.
 */
export const createGitPackageInput = z.object({
  repositoryUrl: z.string().trim().min(1, 'repositoryUrl is required').max(REPOSITORY_URL_MAX_LENGTH),
  credentials: gitCredentialsSchema.optional(),
  packageName: packageNameSchema.optional(),
  description: descriptionSchema,
  isActive: z.boolean().default(true),
});
export type CreateGitPackageInput = z.input<typeof createGitPackageInput>;

/** PUT /api/repositories/{id}: fields left out keep their value. */
export const updatePackageInput = z.object({
  packageName: packageNameSchema.optional(),
  description: descriptionSchema.optional(),
  isActive: z.boolean().optional(),
});
export type UpdatePackageInput = z.input<typeof updatePackageInput>;

/** A package's path id: one that is not one of the seller's packages, malformed or not, answers 404. */
export const packageIdParams = z.object({ id: entityId });

export const syncStatuses = ['pending', 'syncing', 'ready', 'failed'] as const;
export type SyncStatus = (typeof syncStatuses)[number];

/** A tag or branch Composer would not publish, and why (shown to the seller). */
export const skippedReferenceSchema = z.object({ reference: z.string(), reason: z.string() });
export type SkippedReference = z.infer<typeof skippedReferenceSchema>;

/** A package as the Management page shows it. Times are ISO strings. */
export const packageSchema = z.object({
  id: z.string(),
  packageName: z.string(),
  description: z.string().nullable(),
  isActive: z.boolean(),
  /** The repository's full name on the code host (`acme/widget`). */
  fullName: z.string(),
  /** The code host's id of the repository (the card's Repository ID). */
  githubRepoId: z.string(),
  codeHost: z.enum(['github', 'gitlab', 'bitbucket', 'git', 'local']),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** pending until the first sync, syncing while one runs, then ready or failed. */
  syncStatus: z.enum(syncStatuses),
  syncError: z.string().nullable(),
  lastSyncedAt: z.string().nullable(),
  /** Changes whenever the published versions change. */
  metadataUpdatedAt: z.string(),
  versionCount: z.number().int(),
  skippedReferences: z.array(skippedReferenceSchema),
  /** A GitHub push webhook keeps the package up to date by itself. */
  hasWebhook: z.boolean(),
  /** The code-host connection it syncs through; null once that connection was removed. */
  connectionId: z.string().nullable(),
  /** Why the host refuses this package's code and what to do; published versions are still served. */
  accessProblem: z.string().nullable(),
  /** Any git server: the URL git reads; null for other hosts. */
  repositoryUrl: z.string().nullable().default(null),
  /** Over SSH: the public deploy key to add to the repository, read only (the private half never leaves the server). */
  deployKey: z.string().nullable().default(null),
  /** Over SSH: the fingerprint (`SHA256:…`) of the server's host key, pinned when the package was added. */
  sshHostKeyFingerprint: z.string().nullable().default(null),
  /** When its remote's tags and branches were last compared with what is published (reconciliation). */
  lastReconciledAt: z.string().nullable().default(null),
});
export type Package = z.infer<typeof packageSchema>;
export const packageList = z.array(packageSchema);

/** POST /api/repositories answers the package and the task of its first sync. */
export const createPackageResponse = packageSchema.extend({
  /** Null for a package over SSH: its first sync waits until the seller added the deploy key (then Sync now). */
  taskId: z.string().nullable(),
});
export type CreatePackageResponse = z.infer<typeof createPackageResponse>;

export const packageVersionSchema = z.object({
  version: z.string(),
  normalizedVersion: z.string(),
  kind: z.enum(['tag', 'branch']),
  reference: z.string(),
  commit: z.string(),
  releasedAt: z.string(),
  /** The dist zip is built and stored. */
  isCached: z.boolean(),
  distSha1: z.string().nullable(),
  distSize: z.number().int().nullable(),
});
export type PackageVersion = z.infer<typeof packageVersionSchema>;

/** GET /api/repositories/{id}: the package with its versions, newest release first. */
export const packageDetailSchema = packageSchema.extend({ versions: z.array(packageVersionSchema) });
export type PackageDetail = z.infer<typeof packageDetailSchema>;

export const deletePackageResponse = z.object({ success: z.literal(true), id: z.string() });

/** POST /api/repositories/{id}/refresh: 202, the sync runs in the background. */
export const refreshPackageResponse = z.object({ taskId: z.string() });

/** POST /api/repositories/reconcile: the job comparing the seller's packages with their remotes now. */
export const reconcilePackagesResponse = z.object({ jobId: z.string() });

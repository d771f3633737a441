import { z } from 'zod';

// The channel `npm run admin` uses while the server runs (PGlite allows one process, so the command cannot open
// the database beside it): loopback requests to /api/local-admin/*, with the secret the server writes to
// DATA_DIR/local-admin.json (readable by its owner only) as a bearer token. Not part of the public API.

export const LOCAL_ADMIN_ADMINS_PATH = '/api/local-admin/admins';
/** POST: the running server answers with a backup archive (application/gzip) of its database and stored objects. */
export const LOCAL_ADMIN_BACKUP_PATH = '/api/local-admin/backup';

/** DATA_DIR/local-admin.json: where the running server answers and the secret it expects. */
export const localAdminChannelFile = z.object({
  url: z.url(),
  secret: z.string().min(32).max(200),
  pid: z.number().int(),
});
export type LocalAdminChannelFile = z.infer<typeof localAdminChannelFile>;

export const createLocalAdminInput = z.object({ email: z.email().max(254) });

export const localAdminAccount = z.object({ id: z.string(), email: z.string().nullable(), createdAt: z.string() });

/** created: a new admin account; promoted: an existing user became an admin; unchanged: already an admin. */
export const createLocalAdminResponse = z.object({
  outcome: z.enum(['created', 'promoted', 'unchanged']),
  admin: localAdminAccount,
});
export type CreateLocalAdminResponse = z.infer<typeof createLocalAdminResponse>;

export const localAdminList = z.array(localAdminAccount);
export type LocalAdminList = z.infer<typeof localAdminList>;

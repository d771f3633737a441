import { z } from 'zod';
import { authUser } from './auth.js';

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

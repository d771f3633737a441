import { z } from 'zod';

export const csrfTokenResponse = z.object({ csrfToken: z.string() });

/** What the web client needs to know about this deployment before anyone signs in. */
export const publicConfigResponse = z.object({
  publicUrl: z.string(),
  composerDomain: z.string(),
  githubSignIn: z.boolean(),
  supportEmail: z.string(),
  debugRoutes: z.boolean(),
});
export type PublicConfig = z.infer<typeof publicConfigResponse>;

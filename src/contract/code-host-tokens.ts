import { z } from 'zod';

// Connecting GitLab and Bitbucket Cloud (issue 30 items 2 and 3): the forms of the Code hosts page. A token is sent
// once, checked with the host, stored sealed and never shown again.

const token = z.string().trim().min(8, 'paste the whole token').max(500);

/** POST /api/code-hosts/gitlab/token: a project, group or personal access token; `baseUrl` for self-managed GitLab. */
export const connectGitlabTokenInput = z.object({
  token,
  baseUrl: z
    .string()
    .trim()
    .max(500)
    .optional()
    .transform((value) => (value === '' ? undefined : value)),
});
export type ConnectGitlabTokenInput = z.input<typeof connectGitlabTokenInput>;

/** POST /api/code-hosts/bitbucket: a workspace access token, or a repository access token with its repository. */
export const connectBitbucketInput = z.object({
  workspace: z.string().trim().min(1).max(100),
  repository: z
    .string()
    .trim()
    .max(100)
    .optional()
    .transform((value) => (value === '' ? undefined : value)),
  token,
  /** Only app passwords come with a user name: given, the answer explains that they ended. */
  username: z.string().trim().max(100).optional(),
});
export type ConnectBitbucketInput = z.input<typeof connectBitbucketInput>;

/** The answer of a connect: the connection as the Code hosts page lists it. */
export const connectedCodeHostSchema = z.object({ id: z.string(), label: z.string(), kind: z.string() });

/** Which connect forms the server offers: OAuth needs GITLAB_CLIENT_ID; tokens work everywhere. */
export const gitlabConnectOptionsSchema = z.object({ oauth: z.boolean(), defaultUrl: z.string() });

/** GET /api/code-hosts/gitlab/callback lands on Code hosts with one of these in `?error=`. */
export const gitlabCallbackQuery = z.object({
  code: z.string().max(500).optional(),
  state: z.string().max(500).optional(),
  error: z.string().max(200).optional(),
  error_description: z.string().max(1000).optional(),
});

/**
 * API v1's bodies (POST /api/v1/code-hosts/gitlab and /bitbucket): the same rules, with the examples the reference
 * shows (GITLAB_ACCESS_TOKEN, BITBUCKET_ACCESS_TOKEN: the token made on the host).
 */
export const apiV1ConnectGitlabInput = connectGitlabTokenInput.meta({
  examples: [{ token: 'GITLAB_ACCESS_TOKEN', baseUrl: 'https://gitlab.example.com' }],
});
export const apiV1ConnectBitbucketInput = connectBitbucketInput.meta({
  examples: [{ workspace: 'acme', token: 'BITBUCKET_ACCESS_TOKEN' }],
});

import { z } from 'zod';
import { entityId } from './ids.js';

// Code hosts (issue 30 items 1 and 7): where a seller's code comes from. Each connection says what it may access
// (scopes or App permissions) and whether it works; secrets never leave the server.

export const codeHostConnectionKinds = ['github_app', 'github_oauth', 'gitlab', 'bitbucket', 'git', 'local'] as const;
export type CodeHostConnectionKind = (typeof codeHostConnectionKinds)[number];

/** GET /api/code-hosts: one connection as the Code hosts page shows it. */
export const codeHostConnectionSchema = z.object({
  id: z.string(),
  kind: z.enum(codeHostConnectionKinds),
  /** `acme on github.com`, `Local folder`. */
  label: z.string(),
  /** The account the connection reads as (installation account, user name, workspace). */
  accountName: z.string().nullable(),
  /** The host's web or API base for self-managed hosts; null for the defaults. */
  baseUrl: z.string().nullable(),
  /** What the connection may access, in words: `Contents: read, Metadata: read`, `repo, read:user`. */
  access: z.string(),
  status: z.enum(['active', 'broken']),
  /** What went wrong and what to do; null while it works. */
  problem: z.string().nullable(),
  problemSince: z.string().nullable(),
  /** How many packages sync through it. */
  packageCount: z.number().int(),
  createdAt: z.string(),
});
export type CodeHostConnection = z.infer<typeof codeHostConnectionSchema>;

/** GET /api/code-hosts: the connections and which kinds this server lets a seller connect. */
export const codeHostOverviewSchema = z.object({
  connections: z.array(codeHostConnectionSchema),
  /** Kinds the server is configured for (GitHub App when GITHUB_APP_* are set, ...). */
  available: z.object({
    githubApp: z.boolean(),
    local: z.boolean(),
    gitlab: z.boolean().default(false),
    bitbucket: z.boolean().default(false),
    git: z.boolean().default(false),
  }),
});
export type CodeHostOverview = z.infer<typeof codeHostOverviewSchema>;

export const codeHostConnectionParams = z.object({ id: entityId });

/** What a code host tells of a repository besides its id, in both lists of repositories a seller picks from. */
export const hostRepositoryFields = {
  fullName: z.string(),
  description: z.string().nullable(),
  /** Only repositories with a composer.json on their default branch can become packages. */
  hasComposerJson: z.boolean(),
  /** The name composer.json declares: the package must carry it (Composer reads the name from there). */
  composerName: z.string().nullable(),
};

/** GET /api/code-hosts/{id}/repositories: one repository a connection may read, read live from the host. */
export const connectionRepositorySchema = z.object({
  /** The host's id of the repository (GitHub's numeric id, the local folder's relative path). */
  id: z.string(),
  ...hostRepositoryFields,
});
export type ConnectionRepository = z.infer<typeof connectionRepositorySchema>;
export const connectionRepositoryList = z.array(connectionRepositorySchema);

/** GET /api/code-hosts/github-app/install: where to send the browser to install the App. */
export const githubAppInstallSchema = z.object({ url: z.string() });

/** POST /api/code-hosts/github-app: the installation GitHub redirected back with (Setup URL). */
export const connectGithubAppInput = z.object({
  installationId: z
    .union([
      z
        .string()
        .trim()
        .regex(/^\d{1,20}$/),
      z.number().int().positive(),
    ])
    .transform(String),
  state: z.string().trim().min(1).max(500),
});
export type ConnectGithubAppInput = z.input<typeof connectGithubAppInput>;

/** POST /api/code-hosts/github-app answers the connection and the packages that moved to it from the OAuth grant. */
export const githubAppConnectedSchema = z.object({
  connectionId: z.string(),
  label: z.string(),
  movedPackages: z.array(z.string()),
});
export type GithubAppConnected = z.infer<typeof githubAppConnectedSchema>;

/** API v1's `{connectionId}` in /api/v1/code-hosts/{connectionId}. */
export const apiV1CodeHostParams = z.object({ connectionId: entityId });

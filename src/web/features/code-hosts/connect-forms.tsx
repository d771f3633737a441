import type { CodeHostOverview } from '@contract/code-hosts';
import type { ComponentType } from 'react';
import { BitbucketConnect } from './bitbucket-connect';
import { GitServerConnect } from './git-server-connect';
import { GithubAppConnect } from './github-app-connect';
import { GitlabConnect } from './gitlab-connect';

// The connect forms the Code hosts page renders, one card per kind this server offers. Each kind's form is its own
// component file; add a line here for a new kind.

export type ConnectForm = {
  kind: string;
  title: string;
  description: string;
  isAvailable: (available: CodeHostOverview['available']) => boolean;
  Form: ComponentType<{ disabled: boolean }>;
};

export const connectForms: ConnectForm[] = [
  {
    kind: 'github_app',
    title: 'GitHub',
    description:
      'Install the Packgate GitHub App on the repositories you pick. It may read their contents and metadata, nothing else, and tells Packgate about every push.',
    isAvailable: (available) => available.githubApp,
    Form: GithubAppConnect,
  },
  {
    kind: 'gitlab',
    title: 'GitLab',
    description:
      'gitlab.com or your own GitLab. Packgate reads your projects with the scopes read_api and read_repository only; OAuth access is renewed every two hours, and a token works until it expires.',
    isAvailable: (available) => available.gitlab,
    Form: GitlabConnect,
  },
  {
    kind: 'bitbucket',
    title: 'Bitbucket Cloud',
    description:
      'A workspace or repository access token: Packgate reads the code it allows and adds a push webhook, nothing else.',
    isAvailable: (available) => available.bitbucket,
    Form: BitbucketConnect,
  },
  {
    kind: 'git',
    title: 'Any git server',
    description:
      'Gitea, Forgejo, Azure DevOps or a plain server: add a repository by its URL, over HTTPS with a user name and a password or token, or over SSH with a read-only deploy key Packgate makes for it.',
    isAvailable: (available) => available.git,
    Form: GitServerConnect,
  },
];

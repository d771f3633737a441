import type { ApiTokenPermission } from '@contract/developer';

// API v1 as the /api-docs page and the /api-tokens quick start present it: its sections, and what an endpoint's
// entry holds. The entries are in api-v1-endpoints.ts; every code sample (cURL, JavaScript, PHP) is rendered from
// that one list, so a test can run each cURL sample against a running server with real ids and a real token put
// in place of the placeholders.

export type ApiSectionId =
  | 'packages'
  | 'code-hosts'
  | 'customers'
  | 'licenses'
  | 'analytics'
  | 'tokens'
  | 'webhooks'
  | 'account';
export type ApiMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export type ApiEndpoint = {
  /** Stable id, also the anchor on /api-docs. */
  id: string;
  section: ApiSectionId;
  method: ApiMethod;
  /** Path with `{name}` placeholders for ids. */
  path: string;
  title: string;
  description: string;
  permission: ApiTokenPermission;
  /** A JSON body; a string value that is exactly `{name}` is a placeholder too. */
  body?: { [key: string]: JsonValue };
  /** POSTs carry an Idempotency-Key: a retry with the same key returns the first answer. */
  idempotencyKey?: string;
  /** The answer is a file, not the JSON envelope: the samples save it under this name. */
  saveAs?: string;
};

export const API_SECTIONS: { id: ApiSectionId; title: string; description: string }[] = [
  { id: 'packages', title: 'Packages', description: 'Your packages, their pricing tiers and purchase links.' },
  {
    id: 'code-hosts',
    title: 'Code hosts',
    description:
      'Where your packages’ code comes from. Connect GitLab or Bitbucket Cloud with an access token (checked with the host before it is stored, and never shown again), list the repositories a connection may read, then create a package from one with connectionId and its id as githubRepoId. Any other git server needs no connection: create the package with repositoryUrl.',
  },
  { id: 'customers', title: 'Customers', description: 'License holders with the packages each may install.' },
  {
    id: 'licenses',
    title: 'Licenses',
    description:
      'Issue, change and revoke licenses from your store. A new license e-mails the holder the repository URL, a token and the setup commands, in your brand, unless you send sendEmail: false.',
  },
  {
    id: 'analytics',
    title: 'Analytics',
    description:
      'Sales figures as on your Dashboard, and the reports of the Analytics page: downloads over time, version adoption, top holders, holders who have not updated, and the sharing signal. totalCustomers counts buyers (distinct e-mails that paid), while List customers lists every license holder, buyers and those you licensed by hand or through this API alike, so it can hold more.',
  },
  {
    id: 'tokens',
    title: 'Tokens',
    description: 'API tokens themselves, for systems that rotate their own, and the audit log of changes.',
  },
  {
    id: 'webhooks',
    title: 'Webhooks',
    description:
      'Endpoints of yours that Packgate calls when something happens (a license created, updated, revoked or expired, a purchase completed, a version published, a download limit reached), signed as Standard Webhooks do: check webhook-signature, v1, followed by the base64 HMAC-SHA256 of {webhook-id}.{webhook-timestamp}.{body} with the signing secret. A failed delivery is retried for three days. Reading them needs tokens:read, changing them tokens:write: an endpoint holds a secret, as a token does.',
  },
  {
    id: 'account',
    title: 'Account',
    description:
      'Everything your account holds, to keep or to move: the same archive as Download export on Settings. It names your license holders and sales, more than any one permission reads, so it needs a full-access token.',
  },
];

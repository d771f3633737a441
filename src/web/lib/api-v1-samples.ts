import type { ApiTokenPermission } from '@contract/developer';

// API v1 as the /api-docs page and the /api-tokens quick start present it. Every code sample (cURL,
// JavaScript, PHP) is rendered from this one list, so a test can run each cURL sample against a running
// server with real ids and a real token put in place of the placeholders.

export type ApiSectionId = 'packages' | 'code-hosts' | 'customers' | 'licenses' | 'analytics' | 'tokens' | 'webhooks';
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
];

export const API_ENDPOINTS: ApiEndpoint[] = [
  {
    id: 'list-packages',
    section: 'packages',
    method: 'GET',
    path: '/api/v1/packages',
    title: 'List packages',
    description: 'Every package you own, with its pricing fields and pricing tiers.',
    permission: 'packages:read',
  },
  {
    id: 'get-package',
    section: 'packages',
    method: 'GET',
    path: '/api/v1/packages/{packageId}',
    title: 'Get a package',
    description: 'One package by id.',
    permission: 'packages:read',
  },
  {
    id: 'create-purchase-link',
    section: 'packages',
    method: 'POST',
    path: '/api/v1/packages/{packageId}/purchase-links',
    title: 'Create purchase links',
    description:
      'A purchase page, a direct checkout link and an embed code for a customer e-mail and pricing tier. Answers 409 while the package has no prices (its pricing fields are null and pricingTiers is empty until then).',
    permission: 'packages:read',
    body: {
      customerEmail: 'customer@example.com',
      successUrl: 'https://shop.example.com/thanks',
      cancelUrl: 'https://shop.example.com/cart',
    },
    idempotencyKey: 'checkout-1042',
  },
  {
    id: 'create-package',
    section: 'packages',
    method: 'POST',
    path: '/api/v1/packages',
    title: 'Create a package',
    description:
      'Turns one of your code-host repositories (its id as the Add Package dialog lists it) into a package; tags become versions in the background.',
    permission: 'packages:write',
    body: {
      githubRepoId: '{repositoryId}',
      packageName: 'acme/widget',
      description: 'Widgets for PHP',
    },
    idempotencyKey: 'new-package-widget',
  },
  {
    id: 'update-package',
    section: 'packages',
    method: 'PATCH',
    path: '/api/v1/packages/{packageId}',
    title: 'Update a package',
    description: 'Changes the name, description or whether it is active; fields you leave out keep their value.',
    permission: 'packages:write',
    body: { description: 'Widgets for PHP 8.3 and newer' },
  },
  {
    id: 'delete-package',
    section: 'packages',
    method: 'DELETE',
    path: '/api/v1/packages/{packageId}',
    title: 'Delete a package',
    description: 'Removes the package and every license to it. This cannot be undone.',
    permission: 'packages:write',
  },
  {
    id: 'list-code-hosts',
    section: 'code-hosts',
    method: 'GET',
    path: '/api/v1/code-hosts',
    title: 'List code host connections',
    description:
      'Every connection your packages can come from, with what it may access, whether it works and how many packages sync through it. Tokens are never returned.',
    permission: 'packages:read',
  },
  {
    id: 'connect-gitlab',
    section: 'code-hosts',
    method: 'POST',
    path: '/api/v1/code-hosts/gitlab',
    title: 'Connect GitLab',
    description:
      'A project, group or personal access token with read_api and read_repository. Add baseUrl for a self-managed GitLab; left out, the server’s GitLab is used. A token GitLab refuses answers 400 and nothing is stored.',
    permission: 'packages:write',
    body: { token: '{gitlabToken}' },
    idempotencyKey: 'connect-gitlab-acme',
  },
  {
    id: 'connect-bitbucket',
    section: 'code-hosts',
    method: 'POST',
    path: '/api/v1/code-hosts/bitbucket',
    title: 'Connect Bitbucket Cloud',
    description:
      'A workspace access token, or a repository access token with repository as well. App passwords are refused: Bitbucket ends them on 2026-06-09.',
    permission: 'packages:write',
    body: { workspace: 'acme', token: '{bitbucketToken}' },
    idempotencyKey: 'connect-bitbucket-acme',
  },
  {
    id: 'list-code-host-repositories',
    section: 'code-hosts',
    method: 'GET',
    path: '/api/v1/code-hosts/{connectionId}/repositories',
    title: 'List a connection’s repositories',
    description:
      'The repositories the connection may read, asked of the host now; the id of one is the githubRepoId of Create a package, with connectionId.',
    permission: 'packages:read',
  },
  {
    id: 'delete-code-host',
    section: 'code-hosts',
    method: 'DELETE',
    path: '/api/v1/code-hosts/{connectionId}',
    title: 'Remove a connection',
    description:
      'Its packages keep serving every version already published and sync no more until moved to another connection. Revoke the token on the host too.',
    permission: 'packages:write',
  },
  {
    id: 'list-customers',
    section: 'customers',
    method: 'GET',
    path: '/api/v1/customers',
    title: 'List customers',
    description:
      'License holders by e-mail, with each package they hold (status, granted, expires, last used), their number of active packages, first purchase and last activity.',
    permission: 'customers:read',
  },
  {
    id: 'regenerate-customer-token',
    section: 'customers',
    method: 'POST',
    path: '/api/v1/customers/regenerate-token',
    title: "Regenerate a customer's token",
    description:
      'Issues a new Composer token for the holder and stops the old one at once. The answer carries the new token (shown once) and the setup commands; sendEmail: false skips the e-mail.',
    permission: 'customers:write',
    body: { email: 'customer@example.com', sendEmail: false },
    idempotencyKey: 'rotate-customer-2026-03',
  },
  {
    id: 'list-licenses',
    section: 'licenses',
    method: 'GET',
    path: '/api/v1/licenses',
    title: 'List licenses',
    description: 'Every license of every package, with its holder and terms; filter with ?packageId= or ?email=.',
    permission: 'customers:read',
  },
  {
    id: 'get-license',
    section: 'licenses',
    method: 'GET',
    path: '/api/v1/licenses/{licenseId}',
    title: 'Get a license',
    description: 'One license by id, with its holder, terms, downloads and last use.',
    permission: 'customers:read',
  },
  {
    id: 'create-license',
    section: 'licenses',
    method: 'POST',
    path: '/api/v1/licenses',
    title: 'Create a license',
    description:
      'Licenses a package to an e-mail address. expiresAt null never expires; downloadLimit null is unlimited; endMode says what ends at expiry: access, or updates only (versions released before it stay installable). The answer carries the repository URL and the setup commands.',
    permission: 'customers:write',
    body: {
      packageId: '{packageId}',
      email: 'customer@example.com',
      expiresAt: null,
      downloadLimit: null,
      endMode: 'updates',
      note: 'Order #1042',
    },
    idempotencyKey: 'order-1042',
  },
  {
    id: 'update-license',
    section: 'licenses',
    method: 'PATCH',
    path: '/api/v1/licenses/{licenseId}',
    title: 'Update a license',
    description: 'Changes any of the terms; fields you leave out keep their value.',
    permission: 'customers:write',
    body: { expiresAt: '2030-12-31T23:59:59Z', downloadLimit: 100 },
  },
  {
    id: 'revoke-license',
    section: 'licenses',
    method: 'DELETE',
    path: '/api/v1/licenses/{licenseId}',
    title: 'Revoke a license',
    description: "The holder's next Composer request is refused.",
    permission: 'customers:write',
  },
  {
    id: 'get-analytics',
    section: 'analytics',
    method: 'GET',
    path: '/api/v1/analytics',
    title: 'Get analytics',
    description:
      'Active packages, total and monthly sales (in cents and formatted), total customers (distinct buyers) and total purchases.',
    permission: 'analytics:read',
  },
  {
    id: 'analytics-downloads',
    section: 'analytics',
    method: 'GET',
    path: '/api/v1/analytics/downloads?period=30&bucket=day',
    title: 'Downloads over time',
    description:
      'Downloads per day or week (UTC) over the last 30, 90 or 365 days; add packageId= or holder= to narrow it.',
    permission: 'analytics:read',
  },
  {
    id: 'analytics-versions',
    section: 'analytics',
    method: 'GET',
    path: '/api/v1/analytics/versions',
    title: 'Version adoption',
    description:
      'Per package, how many holders are on each version and major line, by the version each downloaded last.',
    permission: 'analytics:read',
  },
  {
    id: 'analytics-top-holders',
    section: 'analytics',
    method: 'GET',
    path: '/api/v1/analytics/top-holders?period=90',
    title: 'Top license holders',
    description: 'The holders with the most downloads in the period.',
    permission: 'analytics:read',
  },
  {
    id: 'analytics-stale-holders',
    section: 'analytics',
    method: 'GET',
    path: '/api/v1/analytics/stale-holders?months=6',
    title: 'Holders who have not updated',
    description: 'Live licenses whose holder has not downloaded the package in that many months, or never.',
    permission: 'analytics:read',
  },
  {
    id: 'analytics-sharing',
    section: 'analytics',
    method: 'GET',
    path: '/api/v1/analytics/sharing?period=30',
    title: 'Sharing signal',
    description: "Days on which one holder's token downloaded from many distinct networks: a signal to look at.",
    permission: 'analytics:read',
  },
  {
    id: 'list-audit-events',
    section: 'tokens',
    method: 'GET',
    path: '/api/v1/audit-events',
    title: 'List audit events',
    description:
      'Who changed what and when: token creation and deletion and every license change, newest first, with the token id masked. Page with limit and before.',
    permission: 'tokens:read',
  },
  {
    id: 'list-tokens',
    section: 'tokens',
    method: 'GET',
    path: '/api/v1/tokens',
    title: 'List API tokens',
    description: 'Your API tokens with their permissions, expiry and last use; never the secret.',
    permission: 'tokens:read',
  },
  {
    id: 'create-token',
    section: 'tokens',
    method: 'POST',
    path: '/api/v1/tokens',
    title: 'Create an API token',
    description: 'A new token with the permissions given; its secret is in the answer, once.',
    permission: 'tokens:write',
    body: { name: 'Nightly sync', permissions: ['customers:read'], expiresAt: null },
    idempotencyKey: 'rotate-nightly-sync',
  },
  {
    id: 'delete-token',
    section: 'tokens',
    method: 'DELETE',
    path: '/api/v1/tokens/{tokenId}',
    title: 'Delete an API token',
    description: 'Deletion is permanent: the token is refused from its next request.',
    permission: 'tokens:write',
  },
  {
    id: 'list-webhooks',
    section: 'webhooks',
    method: 'GET',
    path: '/api/v1/webhooks',
    title: 'List webhook endpoints',
    description: 'Your endpoints with their events, whether each is enabled, and never the secret.',
    permission: 'tokens:read',
  },
  {
    id: 'create-webhook',
    section: 'webhooks',
    method: 'POST',
    path: '/api/v1/webhooks',
    title: 'Register a webhook endpoint',
    description:
      'A public https:// address of yours and the events it receives. The answer carries the signing secret, once.',
    permission: 'tokens:write',
    body: { url: '{webhookUrl}', events: ['license.created', 'purchase.completed'], description: 'Order system' },
    idempotencyKey: 'order-system-webhook',
  },
  {
    id: 'get-webhook',
    section: 'webhooks',
    method: 'GET',
    path: '/api/v1/webhooks/{webhookId}',
    title: 'Get a webhook endpoint',
    description: 'One endpoint by id.',
    permission: 'tokens:read',
  },
  {
    id: 'update-webhook',
    section: 'webhooks',
    method: 'PATCH',
    path: '/api/v1/webhooks/{webhookId}',
    title: 'Change a webhook endpoint',
    description: 'Its address, events or description, or isEnabled: false to pause deliveries; fields left out stay.',
    permission: 'tokens:write',
    body: { events: ['license.created', 'license.revoked'] },
  },
  {
    id: 'test-webhook',
    section: 'webhooks',
    method: 'POST',
    path: '/api/v1/webhooks/{webhookId}/test',
    title: 'Send a test event',
    description: 'Sends a webhook.test event to the endpoint now and answers the delivery.',
    permission: 'tokens:write',
  },
  {
    id: 'list-webhook-deliveries',
    section: 'webhooks',
    method: 'GET',
    path: '/api/v1/webhooks/{webhookId}/deliveries',
    title: 'List deliveries',
    description: 'The latest deliveries, newest first, each with its attempts (time, status code, duration).',
    permission: 'tokens:read',
  },
  {
    id: 'redeliver-webhook',
    section: 'webhooks',
    method: 'POST',
    path: '/api/v1/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver',
    title: 'Redeliver',
    description: 'Sends a delivery again now, with the same webhook-id.',
    permission: 'tokens:write',
  },
  {
    id: 'rotate-webhook-secret',
    section: 'webhooks',
    method: 'POST',
    path: '/api/v1/webhooks/{webhookId}/rotate-secret',
    title: 'Rotate the signing secret',
    description: 'Answers the new secret, once; deliveries from now on are signed with it.',
    permission: 'tokens:write',
  },
  {
    id: 'delete-webhook',
    section: 'webhooks',
    method: 'DELETE',
    path: '/api/v1/webhooks/{webhookId}',
    title: 'Delete a webhook endpoint',
    description: 'No more deliveries go to it.',
    permission: 'tokens:write',
  },
];

/** What a sample shows in place of real values until they are known. */
export const SAMPLE_PLACEHOLDERS: Record<string, string> = {
  token: 'YOUR_API_TOKEN',
  packageId: 'PACKAGE_ID',
  licenseId: 'LICENSE_ID',
  tokenId: 'TOKEN_ID',
  repositoryId: 'REPOSITORY_ID',
  webhookId: 'WEBHOOK_ID',
  deliveryId: 'DELIVERY_ID',
  connectionId: 'CONNECTION_ID',
  gitlabToken: 'GITLAB_ACCESS_TOKEN',
  bitbucketToken: 'BITBUCKET_ACCESS_TOKEN',
  webhookUrl: 'https://shop.example.com/packgate-webhooks',
};

/** Where a reader finds the value of each placeholder the samples show (/api-docs, Getting Started). */
export const SAMPLE_PLACEHOLDER_SOURCES: { placeholder: string; source: string }[] = [
  { placeholder: 'YOUR_API_TOKEN', source: 'a token you create on API Tokens (shown once, when you create it).' },
  {
    placeholder: 'PACKAGE_ID',
    source: 'the id field of a package in the answer of List packages (GET /api/v1/packages).',
  },
  { placeholder: 'LICENSE_ID', source: 'license.id in the answer of Create a license, or the id in List licenses.' },
  { placeholder: 'TOKEN_ID', source: 'the id in the answer of Create an API token, or in List API tokens.' },
  {
    placeholder: 'REPOSITORY_ID',
    source:
      "the repository's id on your code host: on GitHub its number; in the local repository folder its path there (acme/widget.git).",
  },
  { placeholder: 'WEBHOOK_ID', source: 'the id in the answer of Register a webhook endpoint, or in the list.' },
  { placeholder: 'DELIVERY_ID', source: 'the id of a delivery in List deliveries (or of Send a test event).' },
  {
    placeholder: 'CONNECTION_ID',
    source: 'the id of a connection in List code host connections, or in the answer of Connect GitLab or Bitbucket.',
  },
  {
    placeholder: 'GITLAB_ACCESS_TOKEN',
    source: 'a project, group or personal access token you create in GitLab, with read_api and read_repository.',
  },
  {
    placeholder: 'BITBUCKET_ACCESS_TOKEN',
    source:
      'a workspace or repository access token you create in Bitbucket (Access tokens), with Repositories: Read and Webhooks: Read and write.',
  },
];

export type SampleValues = { baseUrl: string } & Partial<Record<string, string>>;

const sampleValue = (name: string, values: SampleValues): string => values[name] ?? SAMPLE_PLACEHOLDERS[name] ?? name;

/** Puts values in place of `{name}` in a path; names are plain words, so a linear scan is enough. */
function fillPlaceholders(text: string, values: SampleValues): string {
  return text.replace(/\{(\w+)\}/g, (_match, name: string) => encodeURIComponent(sampleValue(name, values)));
}

function fillBody(value: JsonValue, values: SampleValues): JsonValue {
  if (typeof value === 'string') {
    const placeholder = /^\{(\w+)\}$/.exec(value);
    return placeholder?.[1] ? sampleValue(placeholder[1], values) : value;
  }
  if (Array.isArray(value)) return value.map((item) => fillBody(item, values));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, fillBody(item, values)]));
  }
  return value;
}

export function sampleUrl(endpoint: ApiEndpoint, values: SampleValues): string {
  return `${values.baseUrl.replace(/(^|[^/])\/+$/, '$1')}${fillPlaceholders(endpoint.path, values)}`;
}

function sampleHeaders(endpoint: ApiEndpoint, values: SampleValues): [string, string][] {
  const headers: [string, string][] = [['Authorization', `Bearer ${sampleValue('token', values)}`]];
  if (endpoint.body) headers.push(['Content-Type', 'application/json']);
  if (endpoint.idempotencyKey) headers.push(['Idempotency-Key', endpoint.idempotencyKey]);
  return headers;
}

const sampleBody = (endpoint: ApiEndpoint, values: SampleValues) =>
  endpoint.body ? (fillBody(endpoint.body, values) as { [key: string]: JsonValue }) : undefined;

/** Single quotes keep a POSIX shell from reading anything inside; a quote itself is closed, escaped, reopened. */
const shellQuote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

export function curlSample(endpoint: ApiEndpoint, values: SampleValues): string {
  const lines = [
    `curl${endpoint.method === 'GET' ? '' : ` -X ${endpoint.method}`} ${shellQuote(sampleUrl(endpoint, values))}`,
  ];
  for (const [name, value] of sampleHeaders(endpoint, values)) lines.push(`  -H ${shellQuote(`${name}: ${value}`)}`);
  const body = sampleBody(endpoint, values);
  if (body) lines.push(`  -d ${shellQuote(JSON.stringify(body))}`);
  return lines.join(' \\\n');
}

const indent = (text: string, by: string) => text.replaceAll('\n', `\n${by}`);

export function javascriptSample(endpoint: ApiEndpoint, values: SampleValues): string {
  const headers = sampleHeaders(endpoint, values)
    .map(([name, value]) => `    ${/^\w+$/.test(name) ? name : `'${name}'`}: '${value}',`)
    .join('\n');
  const body = sampleBody(endpoint, values);
  const options = [
    ...(endpoint.method === 'GET' ? [] : [`  method: '${endpoint.method}',`]),
    `  headers: {\n${headers}\n  },`,
    ...(body ? [`  body: JSON.stringify(${indent(JSON.stringify(body, null, 2), '  ')}),`] : []),
  ];
  return [
    `const response = await fetch('${sampleUrl(endpoint, values)}', {`,
    ...options,
    '});',
    '// The envelope: { success, data, meta }, or on failure { success: false, error, message, status, code }.',
    'const answer = await response.json();',
    'console.log(answer.success ? answer.data : answer.message);',
  ].join('\n');
}

const phpString = (text: string) => `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;

/** A JSON value as a PHP array literal, for `json_encode`. */
export function phpValue(value: JsonValue, depth = 1): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return phpString(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const pad = '    '.repeat(depth);
  const close = '    '.repeat(depth - 1);
  const items = Array.isArray(value)
    ? value.map((item) => `${pad}${phpValue(item, depth + 1)},`)
    : Object.entries(value).map(([key, item]) => `${pad}${phpString(key)} => ${phpValue(item, depth + 1)},`);
  return items.length ? `[\n${items.join('\n')}\n${close}]` : '[]';
}

export function phpSample(endpoint: ApiEndpoint, values: SampleValues): string {
  const headers = sampleHeaders(endpoint, values)
    .map(([name, value]) => `        ${phpString(`${name}: ${value}`)},`)
    .join('\n');
  const body = sampleBody(endpoint, values);
  return [
    '<?php',
    `$curl = curl_init(${phpString(sampleUrl(endpoint, values))});`,
    'curl_setopt_array($curl, [',
    ...(endpoint.method === 'GET' ? [] : [`    CURLOPT_CUSTOMREQUEST => '${endpoint.method}',`]),
    '    CURLOPT_RETURNTRANSFER => true,',
    `    CURLOPT_HTTPHEADER => [\n${headers}\n    ],`,
    ...(body ? [`    CURLOPT_POSTFIELDS => json_encode(${phpValue(body, 2)}),`] : []),
    ']);',
    '$answer = json_decode(curl_exec($curl), true);',
    "print_r($answer['success'] ? $answer['data'] : $answer['message']);",
  ].join('\n');
}

export type SampleLanguage = 'curl' | 'javascript' | 'php';
export const SAMPLE_LANGUAGES: { id: SampleLanguage; label: string; render: typeof curlSample }[] = [
  { id: 'curl', label: 'cURL', render: curlSample },
  { id: 'javascript', label: 'JavaScript', render: javascriptSample },
  { id: 'php', label: 'PHP', render: phpSample },
];

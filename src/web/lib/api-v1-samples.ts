import { API_ENDPOINTS } from './api-v1-endpoints';
import { API_SECTIONS, type ApiEndpoint, type JsonValue } from './api-v1-sections';

// The code samples (cURL, JavaScript, PHP) of API v1's endpoints, rendered from the list in api-v1-endpoints.ts with
// real values, or placeholders until they are known, in place of the `{name}`s.

export type { ApiEndpoint, ApiMethod, ApiSectionId, JsonValue } from './api-v1-sections';
export { API_ENDPOINTS, API_SECTIONS };

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
  const method = endpoint.method === 'GET' ? '' : ` -X ${endpoint.method}`;
  const output = endpoint.saveAs ? ` -o ${endpoint.saveAs}` : '';
  const lines = [`curl${method}${output} ${shellQuote(sampleUrl(endpoint, values))}`];
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
  const request = [`const response = await fetch('${sampleUrl(endpoint, values)}', {`, ...options, '});'];
  if (endpoint.saveAs) {
    return [
      "import { writeFile } from 'node:fs/promises';",
      '',
      ...request,
      '// The file, or on failure the envelope { success: false, error, message, status, code }.',
      'if (!response.ok) throw new Error((await response.json()).message);',
      `await writeFile('${endpoint.saveAs}', Buffer.from(await response.arrayBuffer()));`,
    ].join('\n');
  }
  return [
    ...request,
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
    ...(endpoint.saveAs
      ? [
          '$answer = curl_exec($curl);',
          '// The file, or on failure the envelope { success: false, error, message, status, code }.',
          'if (curl_getinfo($curl, CURLINFO_RESPONSE_CODE) === 200) {',
          `    file_put_contents(${phpString(endpoint.saveAs)}, $answer);`,
          '} else {',
          "    print_r(json_decode($answer, true)['message']);",
          '}',
        ]
      : [
          '$answer = json_decode(curl_exec($curl), true);',
          "print_r($answer['success'] ? $answer['data'] : $answer['message']);",
        ]),
  ].join('\n');
}

export type SampleLanguage = 'curl' | 'javascript' | 'php';
export const SAMPLE_LANGUAGES: { id: SampleLanguage; label: string; render: typeof curlSample }[] = [
  { id: 'curl', label: 'cURL', render: curlSample },
  { id: 'javascript', label: 'JavaScript', render: javascriptSample },
  { id: 'php', label: 'PHP', render: phpSample },
];

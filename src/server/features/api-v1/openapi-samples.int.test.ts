import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInShell, type SampleShop, startSampleShop } from '../../../../test/support/api-samples.js';

// Every sample of the interactive reference (/api/docs), pasted into a shell: the reference writes a cURL command
// from the OpenAPI document alone (its server, the operation's path and method, the Authorization header, and the
// request body's example), so this test writes the same command from the served document, puts a real token in
// place of the token placeholder (and real ids in place of `{id}` and the capitalised placeholders the examples
// name), runs it with curl against the running app, and expects 2xx. An operation added without a run here fails.

const TOKEN_PLACEHOLDER = 'YOUR_SECRET_TOKEN';

type Operation = {
  operationId: string;
  requestBody?: { content: { 'application/json'?: { example?: unknown } } };
  parameters?: { in: string; name: string; required?: boolean; example?: unknown }[];
};
type Sample = { operationId: string; method: string; path: string; command: string };

const shellQuote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

/** The cURL command the reference shows for one operation (before the reader fills anything in). */
function referenceSample(server: string, path: string, method: string, operation: Operation): string {
  const lines = [`curl ${shellQuote(`${server}${path}`)}`, `  --request ${method.toUpperCase()}`];
  const example = operation.requestBody?.content['application/json']?.example;
  if (example !== undefined) lines.push(`  --header 'Content-Type: application/json'`);
  for (const parameter of operation.parameters ?? []) {
    if (parameter.in === 'header' && (parameter.required || parameter.example !== undefined)) {
      lines.push(`  --header ${shellQuote(`${parameter.name}: ${String(parameter.example ?? '')}`)}`);
    }
  }
  lines.push(`  --header ${shellQuote(`Authorization: Bearer ${TOKEN_PLACEHOLDER}`)}`);
  if (example !== undefined) lines.push(`  --data ${shellQuote(JSON.stringify(example, null, 2))}`);
  return lines.join(' \\\n');
}

let shop: SampleShop;

beforeAll(async () => {
  shop = await startSampleShop();
  // Purchase links need a price (billing is off here: the links open the purchase page).
  const priced = await shop.seller.client.put(`/api/repositories/${shop.toolsId}/pricing-tiers`, {
    tiers: [{ name: 'Lifetime', pricingType: 'one_time', updateMonths: 12, priceCents: 1999, currency: 'usd' }],
  });
  expect(priced.status).toBe(200);
});

afterAll(async () => {
  await shop?.close();
});

describe('the samples of the interactive reference', () => {
  it('answer 2xx when pasted with a real token (and real ids in place of the placeholders)', async () => {
    const { app, toolsId, receiverUrl, newToken } = shop;
    const document = (await (await fetch(new URL('/api/docs/openapi.json', app.baseUrl))).json()) as {
      servers: { url: string }[];
      paths: Record<string, Record<string, Operation>>;
    };
    const server = document.servers[0]?.url ?? '';
    expect(server).toBe(app.ctx.config.publicUrl);
    const samples = new Map<string, Sample>();
    for (const [route, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const command = referenceSample(server, route, method, operation);
        samples.set(operation.operationId, { operationId: operation.operationId, method, path: route, command });
      }
    }

    // The rate limit is 30 requests a minute per token: a fresh token every 25 samples.
    let token = '';
    let sent = 0;
    const ran: string[] = [];
    async function run(operationId: string, fill: Record<string, string> = {}) {
      const sample = samples.get(operationId);
      if (!sample) throw new Error(`no sample ${operationId} in the reference`);
      if (sent++ % 25 === 0) token = await newToken(`Reference samples ${sent}`);
      ran.push(operationId);
      let command = sample.command.replace(TOKEN_PLACEHOLDER, token);
      for (const [placeholder, value] of Object.entries(fill)) command = command.replaceAll(placeholder, value);
      expect(command, operationId).not.toMatch(/\{\w+\}|[A-Z]{3,}_ID|WEBHOOK_URL/);
      const stdout = await runInShell(`${command} --silent --write-out '\\n%{http_code}'`);
      const status = Number(stdout.slice(stdout.lastIndexOf('\n') + 1));
      const body = stdout.slice(0, stdout.lastIndexOf('\n'));
      expect(status, `${operationId}: ${command}\n${body}`).toBeGreaterThanOrEqual(200);
      expect(status, `${operationId}: ${command}\n${body}`).toBeLessThan(300);
      try {
        return (JSON.parse(body) as { data: Record<string, unknown> }).data;
      } catch {
        return {};
      }
    }
    const id = (value: unknown) => ({ '{id}': String(value) });

    await run('listPackages');
    await run('getPackage', id(toolsId));
    await run('createPurchaseLinks', id(toolsId));
    await run('refreshPackage', id(toolsId));
    const widget = await run('createPackage', { REPOSITORY_ID: 'acme/widget.git' });
    await run('updatePackage', id(widget.id));

    const issued = await run('createLicense', { PACKAGE_ID: toolsId });
    const licenseId = String((issued.license as { id: string }).id);
    const [customer] = (await run('listCustomers')) as unknown as { id: string }[];
    const ofCustomer = { '{customerId}': String(customer?.id) };
    await run('listCustomerTokens', ofCustomer);
    const holderToken = await run('createCustomerToken', ofCustomer);
    await run('rotateCustomerToken', { ...ofCustomer, '{tokenId}': String(holderToken.id) });
    await run('deleteCustomerToken', { ...ofCustomer, '{tokenId}': String(holderToken.id) });
    const trust = await run('createCustomerOidcTrust', ofCustomer);
    await run('listCustomerOidcTrusts', ofCustomer);
    await run('deleteCustomerOidcTrust', { ...ofCustomer, '{trustId}': String(trust.id) });
    await run('regenerateCustomerToken');
    await run('listLicenses');
    await run('getLicense', id(licenseId));
    await run('updateLicense', id(licenseId));
    await run('revokeLicense', id(licenseId));

    for (const operationId of samples.keys()) {
      if (operationId.startsWith('getAnalytics')) await run(operationId);
    }

    await run('listApiTokens');
    const minted = await run('createApiToken');
    await run('deleteApiToken', id(minted.id));
    await run('listAuditEvents');

    const endpoint = await run('createWebhookEndpoint', { WEBHOOK_URL: receiverUrl });
    await run('listWebhookEndpoints');
    await run('getWebhookEndpoint', id(endpoint.id));
    await run('updateWebhookEndpoint', id(endpoint.id));
    const delivery = await run('sendWebhookTestEvent', id(endpoint.id));
    await run('listWebhookDeliveries', id(endpoint.id));
    await run('redeliverWebhookDelivery', { ...id(endpoint.id), '{deliveryId}': String(delivery.id) });
    await run('rotateWebhookSecret', id(endpoint.id));
    await run('deleteWebhookEndpoint', id(endpoint.id));

    // Products (issue 31): made of the tools package, licensed, then deleted once its license is revoked.
    const product = await run('createProduct', { PACKAGE_ID: toolsId });
    const ofProduct = { '{productId}': String(product.id) };
    await run('listProducts');
    await run('getProduct', ofProduct);
    await run('updateProduct', ofProduct);
    const productPrice = await shop.seller.client.put(`/api/products/${String(product.id)}/pricing-tiers`, {
      tiers: [{ name: 'Suite', pricingType: 'one_time', updateMonths: 12, priceCents: 4999, currency: 'usd' }],
    });
    expect(productPrice.status).toBe(200);
    await run('createProductPurchaseLinks', ofProduct);
    await run('deleteProduct', ofProduct);

    // Code hosts (issue 30): GitLab and Bitbucket Cloud connected with the fakes' tokens, listed, then one removed.
    const { codeHosts } = shop;
    const gitlab = await run('connectGitlab', {
      GITLAB_ACCESS_TOKEN: codeHosts.gitlabToken,
      'https://gitlab.example.com': codeHosts.gitlabUrl,
    });
    await run('listCodeHosts');
    await run('listCodeHostRepositories', { '{connectionId}': String(gitlab.id) });
    const bitbucket = await run('connectBitbucket', { BITBUCKET_ACCESS_TOKEN: codeHosts.bitbucketToken });
    await run('deleteCodeHost', { '{connectionId}': String(bitbucket.id) });

    await run('deletePackage', id(widget.id));
    for (const operationId of samples.keys()) {
      if (!ran.includes(operationId) && !samples.get(operationId)?.path.includes('{')) await run(operationId);
    }

    expect([...ran].sort()).toEqual([...samples.keys()].sort());
    // Some 60 curl runs one after another: a bound for a busy machine, not a speed check.
  }, 240_000);
});

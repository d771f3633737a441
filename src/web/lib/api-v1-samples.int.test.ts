import { execFile } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInShell, type SampleShop, startSampleShop } from '../../../test/support/api-samples.js';
import {
  API_ENDPOINTS,
  type ApiEndpoint,
  curlSample,
  javascriptSample,
  phpSample,
  type SampleValues,
} from './api-v1-samples.js';

// Every cURL sample the /api-docs page shows, pasted into a shell as a developer would (with their token and
// real ids in place of the placeholders), against the running app: each answers the success envelope (the
// account's export saves its archive instead). The samples are rendered from the same list as the page, so a
// sample that drifts from the API fails here.

const execFileAsync = promisify(execFile);

type Envelope = { success: boolean; data: unknown; meta: { provider: string; apiVersion: string }; code?: string };

let shop: SampleShop;
// One token per 30 requests: the samples outnumber a token's rate limit (30 a minute).
let token: string;
let secondToken: string;
let languagesToken: string;

async function runCurl(command: string): Promise<Envelope> {
  return JSON.parse(await runInShell(command)) as Envelope;
}

/** The file a sample saved is the account's archive: a gzip'd tar whose folder holds data.json. */
async function expectExportArchive(file: string): Promise<void> {
  const archive = await readFile(file);
  expect([...archive.subarray(0, 2)], 'gzip magic bytes').toEqual([0x1f, 0x8b]);
  const { stdout: listing } = await execFileAsync('tar', ['-tzf', file]);
  expect(listing.split('\n')).toContainEqual(expect.stringMatching(/^packgate-export-acme-[\d-]+\/data\.json$/));
}

const endpoint = (id: string): ApiEndpoint => {
  const found = API_ENDPOINTS.find((candidate) => candidate.id === id);
  if (!found) throw new Error(`no sample ${id}`);
  return found;
};

beforeAll(async () => {
  shop = await startSampleShop();
  token = await shop.newToken('Docs samples');
  secondToken = await shop.newToken('Docs samples, reports and webhooks');
  languagesToken = await shop.newToken('Docs samples in other languages');
});

afterAll(async () => {
  await shop?.close();
});

describe('the samples of /api-docs', () => {
  it('answer the success envelope when their cURL is pasted with a real token and ids', async () => {
    const { app, toolsId, receiverUrl } = shop;
    const ran = new Set<string>();
    const base = (): SampleValues => ({ baseUrl: app.ctx.config.publicUrl, token, packageId: toolsId });
    const run = async (id: string, values: Partial<SampleValues> = {}) => {
      ran.add(id);
      const answer = await runCurl(curlSample(endpoint(id), { ...base(), ...values }));
      expect(answer.meta, id).toMatchObject({ provider: 'packgate', apiVersion: 'v1' });
      return answer;
    };
    const succeed = async (id: string, values: Partial<SampleValues> = {}) => {
      const answer = await run(id, values);
      expect(answer.success, `${id}: ${JSON.stringify(answer)}`).toBe(true);
      return answer.data as Record<string, unknown>;
    };

    await succeed('list-packages');
    await succeed('get-package');
    // Prices come with sales: until a package has them the documented answer is a 409 in the same envelope.
    const purchase = await run('create-purchase-link');
    expect(purchase).toMatchObject({ success: false, status: 409 });

    const widget = await succeed('create-package', { repositoryId: 'acme/widget.git' });
    await succeed('update-package', { packageId: String(widget.id) });

    const issued = await succeed('create-license');
    const licenseId = String((issued.license as { id: string }).id);
    await succeed('list-customers');
    await succeed('regenerate-customer-token');
    await succeed('list-licenses');
    await succeed('get-license', { licenseId });
    await succeed('update-license', { licenseId });
    await succeed('revoke-license', { licenseId });
    await succeed('get-analytics');

    await succeed('list-tokens');
    const minted = await succeed('create-token');
    await succeed('delete-token', { tokenId: String(minted.id) });
    await succeed('list-audit-events');
    await succeed('delete-package', { packageId: String(widget.id) });

    // Code hosts (issue 30): the fakes' tokens in place of the placeholders; the connection made last is removed.
    const { codeHosts } = shop;
    const gitlab = await succeed('connect-gitlab', { gitlabToken: codeHosts.gitlabToken });
    await succeed('list-code-hosts');
    await succeed('list-code-host-repositories', { connectionId: String(gitlab.id) });
    const bitbucket = await succeed('connect-bitbucket', { bitbucketToken: codeHosts.bitbucketToken });
    await succeed('delete-code-host', { connectionId: String(bitbucket.id) });

    const second = { token: secondToken };
    for (const report of ['downloads', 'versions', 'top-holders', 'stale-holders', 'sharing']) {
      await succeed(`analytics-${report}`, second);
    }

    const endpointCreated = await succeed('create-webhook', { ...second, webhookUrl: receiverUrl });
    const webhookId = String(endpointCreated.id);
    await succeed('list-webhooks', second);
    await succeed('get-webhook', { ...second, webhookId });
    await succeed('update-webhook', { ...second, webhookId });
    const delivery = await succeed('test-webhook', { ...second, webhookId });
    await succeed('list-webhook-deliveries', { ...second, webhookId });
    await succeed('redeliver-webhook', { ...second, webhookId, deliveryId: String(delivery.id) });
    await succeed('rotate-webhook-secret', { ...second, webhookId });
    await succeed('delete-webhook', { ...second, webhookId });

    // A sample added to the page without a run here fails the test; those that save a file run in the test below.
    const answeringJson = API_ENDPOINTS.filter((candidate) => !candidate.saveAs);
    expect([...ran].sort()).toEqual(answeringJson.map((candidate) => candidate.id).sort());
  });

  it('run as JavaScript (Node) and PHP too', async () => {
    const { app } = shop;
    const values = { baseUrl: app.ctx.config.publicUrl, token: languagesToken };
    const listPackages = endpoint('list-packages');
    const node = await execFileAsync(
      process.execPath,
      ['--input-type=module', '-e', javascriptSample(listPackages, values)],
      { timeout: 30_000 },
    );
    expect(node.stdout).toContain('acme/tools');
    const script = path.join(app.dataDir, 'sample.php');
    await writeFile(script, phpSample(listPackages, values));
    const php = await execFileAsync('php', [script], { timeout: 30_000 });
    expect(php.stdout).toContain('acme/tools');
  });

  it("save the account's archive, a gzip'd tar, from the export's cURL, JavaScript and PHP", async () => {
    const { app } = shop;
    // The export needs a full-access token of the owner's: the samples' tokens are.
    const values = { baseUrl: app.ctx.config.publicUrl, token: await shop.newToken('Docs samples, the export') };
    const fileSamples = API_ENDPOINTS.filter((candidate) => candidate.saveAs);
    expect(fileSamples.map((candidate) => candidate.id)).toEqual(['export-account']);
    const exportSample = endpoint('export-account');
    const saved = (folder: string) => path.join(folder, exportSample.saveAs ?? '');

    const byCurl = await mkdtemp(path.join(app.dataDir, 'export-curl-'));
    expect(await runInShell(curlSample(exportSample, values), byCurl)).toBe('');
    await expectExportArchive(saved(byCurl));

    const byNode = await mkdtemp(path.join(app.dataDir, 'export-node-'));
    await execFileAsync(process.execPath, ['--input-type=module', '-e', javascriptSample(exportSample, values)], {
      timeout: 30_000,
      cwd: byNode,
    });
    await expectExportArchive(saved(byNode));

    const byPhp = await mkdtemp(path.join(app.dataDir, 'export-php-'));
    await writeFile(path.join(byPhp, 'export.php'), phpSample(exportSample, values));
    await execFileAsync('php', ['export.php'], { timeout: 30_000, cwd: byPhp });
    await expectExportArchive(saved(byPhp));
  });
});

import { describe, expect, it } from 'vitest';
import {
  API_ENDPOINTS,
  API_SECTIONS,
  curlSample,
  javascriptSample,
  phpSample,
  phpValue,
  SAMPLE_PLACEHOLDER_SOURCES,
  SAMPLE_PLACEHOLDERS,
} from './api-v1-samples';

const endpoint = (id: string) => API_ENDPOINTS.find((candidate) => candidate.id === id)!;
const values = { baseUrl: 'https://packgate.example.com/', token: 'pga_secret', packageId: 'p 1' };

describe('API samples', () => {
  it('documents every endpoint under one of the guide sections', () => {
    const sections = new Set(API_SECTIONS.map((section) => section.id));
    for (const candidate of API_ENDPOINTS) expect(sections.has(candidate.section)).toBe(true);
    expect(new Set(API_ENDPOINTS.map((candidate) => candidate.id)).size).toBe(API_ENDPOINTS.length);
  });

  it('covers webhooks and the analytics reports, and says where every placeholder comes from (issue 36)', () => {
    const paths = API_ENDPOINTS.map((candidate) => `${candidate.method} ${candidate.path.split('?')[0]}`);
    for (const report of ['downloads', 'versions', 'top-holders', 'stale-holders', 'sharing']) {
      expect(paths).toContain(`GET /api/v1/analytics/${report}`);
    }
    expect(paths).toEqual(expect.arrayContaining(['GET /api/v1/webhooks', 'POST /api/v1/webhooks']));
    expect(API_SECTIONS.find((section) => section.id === 'webhooks')?.description).toContain('webhook-signature');
    // Which customers Analytics counts, and which the customer list holds.
    expect(API_SECTIONS.find((section) => section.id === 'analytics')?.description).toMatch(
      /totalCustomers counts buyers.*List customers lists every license holder/,
    );
    const explained = new Map(SAMPLE_PLACEHOLDER_SOURCES.map(({ placeholder, source }) => [placeholder, source]));
    expect(explained.get('PACKAGE_ID')).toContain('GET /api/v1/packages');
    for (const [name, placeholder] of Object.entries(SAMPLE_PLACEHOLDERS)) {
      if (name !== 'webhookUrl') expect(explained.has(placeholder), placeholder).toBe(true);
    }
  });

  it('renders a GET as a pasteable curl command with the real URL and token', () => {
    expect(curlSample(endpoint('get-package'), values)).toBe(
      "curl 'https://packgate.example.com/api/v1/packages/p%201' \\\n  -H 'Authorization: Bearer pga_secret'",
    );
  });

  it('sends a POST body, its content type and an Idempotency-Key, with placeholders filled', () => {
    const sample = curlSample(endpoint('create-license'), values);
    expect(sample).toContain("curl -X POST 'https://packgate.example.com/api/v1/licenses'");
    expect(sample).toContain("-H 'Content-Type: application/json'");
    expect(sample).toContain("-H 'Idempotency-Key: order-1042'");
    expect(sample).toContain('"packageId":"p 1"');
  });

  it('keeps placeholders where values are unknown', () => {
    const sample = curlSample(endpoint('revoke-license'), { baseUrl: 'http://localhost:5000' });
    expect(sample).toBe(
      "curl -X DELETE 'http://localhost:5000/api/v1/licenses/LICENSE_ID' \\\n  -H 'Authorization: Bearer YOUR_API_TOKEN'",
    );
  });

  it('quotes a single quote for the shell', () => {
    const sample = curlSample({ ...endpoint('create-license'), body: { note: "O'Brien" } }, values);
    expect(sample).toContain(`-d '{"note":"O'\\''Brien"}'`);
  });

  it('renders the same request in JavaScript and PHP', () => {
    const js = javascriptSample(endpoint('create-license'), values);
    expect(js).toContain("fetch('https://packgate.example.com/api/v1/licenses', {");
    expect(js).toContain("method: 'POST'");
    expect(js).toContain("'Idempotency-Key': 'order-1042'");
    const php = phpSample(endpoint('create-license'), values);
    expect(php).toContain("curl_init('https://packgate.example.com/api/v1/licenses')");
    expect(php).toContain("CURLOPT_CUSTOMREQUEST => 'POST'");
    expect(php).toContain("'packageId' => 'p 1',");
  });

  it('writes JSON values as PHP literals', () => {
    expect(phpValue({ a: [1, true, null], b: "it's" })).toBe(
      "[\n    'a' => [\n        1,\n        true,\n        null,\n    ],\n    'b' => 'it\\'s',\n]",
    );
  });
});

import path from 'node:path';
import { lintFromString, loadConfig } from '@redocly/openapi-core';
import { describe, expect, it } from 'vitest';
import { testAppAroundTests } from '../../../../test/support/test-app.js';

// The OpenAPI document read by a linter nobody here wrote (Redocly's, with the rules of redocly.yaml at the
// repository's root): 0 errors, 0 warnings; a rule turned off is named and justified in that file.

const started = testAppAroundTests();

describe('the OpenAPI document', () => {
  it("passes Redocly's lint with no problem", async () => {
    const source = await (await fetch(new URL('/api/docs/openapi.json', started.app.baseUrl))).text();
    const config = await loadConfig({ configPath: path.resolve('redocly.yaml') });
    const problems = await lintFromString({ source, absoluteRef: 'openapi.json', config });
    const described = problems.map(
      (problem) =>
        `${problem.severity} ${problem.ruleId} at ${problem.location[0]?.pointer ?? '?'}: ${problem.message}`,
    );
    expect(described).toEqual([]);
  });

  it('gives every path id a description naming the list it comes from and an example of its own', async () => {
    type Parameter = {
      in: string;
      name: string;
      description?: string;
      example?: unknown;
      schema?: { format?: string };
    };
    const document = (await (await fetch(new URL('/api/docs/openapi.json', started.app.baseUrl))).json()) as {
      paths: Record<string, Record<string, { parameters?: Parameter[] }>>;
    };
    const described = new Map<string, { description?: string; example?: unknown }>();
    for (const [route, operations] of Object.entries(document.paths)) {
      for (const operation of Object.values(operations)) {
        for (const parameter of operation.parameters ?? []) {
          if (parameter.in !== 'path') continue;
          described.set(`${route} ${parameter.name}`, parameter);
        }
      }
    }
    expect(described.get('/api/v1/packages/{id} id')?.description).toBe(
      'The `id` of the package, from GET /api/v1/packages.',
    );
    expect(described.get('/api/v1/customers/{customerId}/tokens/{tokenId} tokenId')?.description).toBe(
      'The `id` of the token, from GET /api/v1/customers/{customerId}/tokens.',
    );
    const uuidShape = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    const examples = new Map<string, string>();
    for (const [where, parameter] of described) {
      const list = /from GET (\S+)\.$/.exec(parameter.description ?? '')?.[1];
      expect(list, where).toBeDefined();
      expect(document.paths[list ?? '']?.get, `${where}: GET ${list}`).toBeDefined();
      const shape = where.endsWith(' deliveryId') ? /^msg_[\w-]{22}$/ : uuidShape;
      expect(String(parameter.example), where).toMatch(shape);
      // One list, one example: the same id reads the same on every operation, and two lists never share one.
      expect(examples.get(String(parameter.example)) ?? list, where).toBe(list);
      examples.set(String(parameter.example), list ?? '');
    }
    expect(described.size).toBeGreaterThan(20);
  });
});

import path from 'node:path';
import { lintFromString, loadConfig } from '@redocly/openapi-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/support/test-app.js';

// The OpenAPI document read by a linter nobody here wrote (Redocly's, with the rules of redocly.yaml at the
// repository's root): 0 errors, 0 warnings; a rule turned off is named and justified in that file.

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});

afterAll(async () => {
  await app?.close();
});

describe('the OpenAPI document', () => {
  it("passes Redocly's lint with no problem", async () => {
    const source = await (await fetch(new URL('/api/docs/openapi.json', app.baseUrl))).text();
    const config = await loadConfig({ configPath: path.resolve('redocly.yaml') });
    const problems = await lintFromString({ source, absoluteRef: 'openapi.json', config });
    const described = problems.map(
      (problem) =>
        `${problem.severity} ${problem.ruleId} at ${problem.location[0]?.pointer ?? '?'}: ${problem.message}`,
    );
    expect(described).toEqual([]);
  });
});

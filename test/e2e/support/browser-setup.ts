import type { TestProject } from 'vitest/node';
import { launchBrowserServer } from './chromium.js';

// Vitest global setup of the e2e project: one Chromium for the whole run, which every test file connects to
// and takes fresh contexts from, instead of each file starting (and paying for) a Chromium of its own.

declare module 'vitest' {
  export interface ProvidedContext {
    /** WebSocket address of the run's Chromium (playwright-core's browser server). */
    browserEndpoint?: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await launchBrowserServer();
  project.provide('browserEndpoint', server.wsEndpoint());
  return () => server.close();
}

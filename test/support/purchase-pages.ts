import { jsonOf, requestOnHost } from '../composer/repository-fixtures.js';
import type { TestApp } from './test-app.js';

/**
 * What a buyer's browser asks of the seller's host (the purchase page, checkout, the success page): a GET, or a POST of
 * `body` as JSON. Answers the status and the JSON body.
 */
export async function purchasePageJson<T>(
  app: TestApp,
  host: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const response = await requestOnHost(app, host, path, {
    method: body === undefined ? 'GET' : 'POST',
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: jsonOf<T>(response) };
}

import Stripe from 'stripe';
import { describe, expect, it, vi } from 'vitest';
import { AppError } from '../../lib/app-error.js';
import { callStripe } from './stripe-call.js';

const log = { warn: vi.fn() } as unknown as Parameters<typeof callStripe>[0];
const fail = (error: unknown) => () => Promise.reject(error);

describe('callStripe', () => {
  it("answers Stripe's value when the call succeeds", async () => {
    await expect(callStripe(log, 'Stripe', 'retrieve', async () => 42)).resolves.toBe(42);
  });

  it('asks to try again in a minute when Stripe cannot be reached or fails', async () => {
    const unreachable = new Stripe.errors.StripeConnectionError({ message: 'socket hang up', type: 'api_error' });
    const failing = new Stripe.errors.StripeAPIError({ message: 'boom', type: 'api_error', statusCode: 502 });
    for (const error of [unreachable, failing]) {
      await expect(callStripe(log, 'Stripe', 'create checkout', fail(error))).rejects.toMatchObject({
        code: 'UNAVAILABLE',
        message: 'The payment provider could not be reached.',
        suggestion: 'Try again in a minute.',
      });
    }
  });

  it("gives Stripe's reason for a refusal, and lets the app's own errors and others through", async () => {
    const refused = new Stripe.errors.StripeInvalidRequestError({
      message: 'No such price',
      type: 'invalid_request_error',
      statusCode: 400,
    });
    await expect(callStripe(log, 'Stripe Connect', 'create price', fail(refused))).rejects.toMatchObject({
      code: 'UNAVAILABLE',
      message: 'The payment provider refused the request: No such price',
    });
    const own = new AppError('NOT_FOUND', 'Package not found');
    await expect(callStripe(log, 'Stripe', 'x', fail(own))).rejects.toBe(own);
    const other = new TypeError('bug');
    await expect(callStripe(log, 'Stripe', 'x', fail(other))).rejects.toBe(other);
  });
});

import type { FastifyBaseLogger } from 'fastify';
import Stripe from 'stripe';
import { AppError } from '../../lib/app-error.js';

/**
 * Runs a Stripe call, turning its failures into the app's errors (a seller reads them): Stripe unreachable or failing
 * (5xx) says to try again in a minute, a refusal says Stripe's reason; both are logged without the request's data.
 * `label` names the API in the log ("Stripe", "Stripe Connect").
 */
export async function callStripe<T>(
  log: FastifyBaseLogger,
  label: string,
  what: string,
  run: () => Promise<T>,
): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (error instanceof Stripe.errors.StripeError) {
      log.warn(
        { stripe: { type: error.type, code: error.code, statusCode: error.statusCode, message: error.message } },
        `${label} call failed: ${what}`,
      );
      if (error instanceof Stripe.errors.StripeConnectionError || (error.statusCode ?? 500) >= 500) {
        throw new AppError('UNAVAILABLE', 'The payment provider could not be reached.', {
          suggestion: 'Try again in a minute.',
        });
      }
      throw new AppError('UNAVAILABLE', `The payment provider refused the request: ${error.message}`, {
        suggestion: 'Try again, or contact support if it keeps happening.',
      });
    }
    throw error;
  }
}

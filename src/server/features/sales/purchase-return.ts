import { salesMessages } from '../../../contract/sales.js';
import { AppError } from '../../http/errors.js';
import { hmacHex, safeEqual } from '../../lib/crypto.js';

// A checkout's return addresses (successUrl, cancelUrl) are the seller's: only a purchase link made through API v1
// carries them, signed, and the purchase page hands them back with the signature when the buyer clicks Buy. Taken
// unsigned from a buyer's request, anyone could send a paying buyer's checkout session (and so the token the success
// page shows) to an address of their own.

export type PurchaseReturn = { packageId: string; successUrl?: string; cancelUrl?: string };

function signedText(value: PurchaseReturn): string {
  return JSON.stringify(['purchase-return', value.packageId, value.successUrl ?? '', value.cancelUrl ?? '']);
}

/** The `sig` of a purchase link's return addresses; undefined when it has none. */
export function signPurchaseReturn(secretKey: string, value: PurchaseReturn): string | undefined {
  if (!value.successUrl && !value.cancelUrl) return undefined;
  return hmacHex(secretKey, signedText(value));
}

/** Throws VALIDATION_FAILED unless return addresses, when there are any, come with their purchase link's `sig`. */
export function assertSignedPurchaseReturn(secretKey: string, value: PurchaseReturn, sig: string | undefined): void {
  const expected = signPurchaseReturn(secretKey, value);
  if (expected === undefined) return;
  if (!sig || !safeEqual(sig, expected)) throw new AppError('VALIDATION_FAILED', salesMessages.returnUrlsUnsigned);
}

/** /purchase?package={id} on a seller's repository host: the package's tiers in the seller's brand (issue 11). */
export function PurchasePage() {
  return null;
}

/** /purchase/success?session_id={id} on a seller's repository host: the buyer's token and commands (issue 11). */
export function PurchaseSuccessPage() {
  return null;
}

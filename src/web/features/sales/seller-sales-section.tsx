/** The Dashboard's selling section (issue 11): the payout account and the seller's sales figures. */
export function SellerSalesSection() {
  return null;
}

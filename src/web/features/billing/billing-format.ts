/** Dates on the billing screens, in en-US (spec seller-app §9): "March 1, 2026". */
export const formatBillingDate = (iso: string) =>
  new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });

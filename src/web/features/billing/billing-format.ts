import { formatDate } from '../../lib/format-date';

/** Dates on the billing screens in the app's one en-US format (spec seller-app §9): "Mar 1, 2026". */
export const formatBillingDate = (iso: string) => formatDate(iso);

// The periods of a platform plan: pure date rules, no I/O (spec seller-app §4). Stripe keeps its own periods; these
// are billing off's, and the renewal arithmetic both display.

/** One calendar month later (Jan 31 → Feb 28/29, as billing periods do). */
export function addOneMonth(date: Date): Date {
  const next = new Date(date);
  const day = next.getUTCDate();
  next.setUTCDate(1);
  next.setUTCMonth(next.getUTCMonth() + 1);
  const lastDay = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
  next.setUTCDate(Math.min(day, lastDay));
  return next;
}

/** Billing off renews without a charge: the period that runs at `now`, rolled forward from the stored end. */
export function runningPeriodEnd(periodEnd: Date, now: Date): Date {
  let end = periodEnd;
  while (end.getTime() <= now.getTime()) end = addOneMonth(end);
  return end;
}

import { addMonths } from '../../lib/calendar.js';

// The periods of a platform plan: pure date rules, no I/O (spec seller-app §4). Stripe keeps its own periods; these
// are billing off's, and the renewal arithmetic both display.

/** One calendar month later (Jan 31 → Feb 28/29, as billing periods do): the calendar rule sales' periods use. */
export function addOneMonth(date: Date): Date {
  return addMonths(date, 1);
}

/** Billing off renews without a charge: the period that runs at `now`, rolled forward from the stored end. */
export function runningPeriodEnd(periodEnd: Date, now: Date): Date {
  let end = periodEnd;
  while (end.getTime() <= now.getTime()) end = addOneMonth(end);
  return end;
}

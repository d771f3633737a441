// A price as the dialogs' price fields show and read it (the admin's tier dialog, the seller's Pricing dialog).

/** Cents as a price field shows them: "49.00". */
export const centsToPrice = (cents: number): string => (cents / 100).toFixed(2);

/**
 * A typed price in cents: up to two decimals, rounded to the cent by exact decimal arithmetic (no float
 * surprises: "19.99" is 1999); undefined when it is not a plain non-negative amount ("-5", "1e3", "1.999").
 */
export function priceToCents(price: string): number | undefined {
  const match = /^(\d{1,9})(?:[.,](\d{0,2}))?$/.exec(price.trim());
  if (!match) return undefined;
  const whole = Number(match[1]);
  const fraction = (match[2] ?? '').padEnd(2, '0');
  return whole * 100 + Number(fraction);
}

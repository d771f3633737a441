import type { Plan } from '@contract/plans';

/** A plan for the web's unit tests: a $19 tier named by its id with modest limits, changed by `overrides`. */
export const planFixture = (id: string, overrides: Partial<Plan> = {}): Plan => ({
  id,
  name: id,
  icon: 'package',
  priceCents: 1900,
  currency: 'usd',
  description: '',
  features: [],
  maxCustomers: 25,
  maxPackages: 3,
  isMostPopular: false,
  isFeatured: false,
  sortOrder: 0,
  ...overrides,
});

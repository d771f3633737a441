import { type Plan, UNLIMITED } from '../../../contract/plans.js';

/**
 * The plans a fresh installation offers (spec admin §9); admins edit them in the tier dialog. The spec fixes no
 * feature texts, so they say what the product does: every plan gets the whole product (the API v1 with
 * fine-grained token permissions, white-label branding, pre-built archives); plans differ in their limits and
 * in the support that comes with them (issue 36).
 */
export const defaultPlans: Plan[] = [
  {
    id: 'starter',
    name: 'Starter',
    icon: 'package',
    priceCents: 1900,
    currency: 'usd',
    description: 'For a developer selling a first few private packages to a small circle of customers.',
    features: [
      'Your own Composer repository host',
      'Temporary licenses sent by e-mail',
      'White-label branding and a custom domain',
      'Download analytics',
      'REST API v1 with fine-grained token permissions',
      'E-mail support',
    ],
    maxCustomers: 25,
    maxPackages: 3,
    isMostPopular: true,
    isFeatured: false,
    sortOrder: 0,
  },
  {
    id: 'growth',
    name: 'Growth',
    icon: 'users',
    priceCents: 4900,
    currency: 'usd',
    description: 'For a growing catalogue with a steady stream of customers.',
    features: ['Everything in Starter', 'Priority e-mail support'],
    maxCustomers: 100,
    maxPackages: 10,
    isMostPopular: false,
    isFeatured: false,
    sortOrder: 1,
  },
  {
    id: 'scale',
    name: 'Scale',
    icon: 'zap',
    priceCents: 9900,
    currency: 'usd',
    description: 'For established vendors who ship many packages to hundreds of teams.',
    features: ['Everything in Growth', 'Priority support'],
    maxCustomers: 500,
    maxPackages: 25,
    isMostPopular: false,
    isFeatured: true,
    sortOrder: 2,
  },
  {
    id: 'enterprise',
    name: 'Enterprise',
    icon: 'crown',
    priceCents: 19900,
    currency: 'usd',
    description: 'For agencies and software companies that need no limits on packages or customers.',
    features: [
      'Everything in Scale',
      'GitHub Enterprise Server support',
      'Guided onboarding',
      'Priority support with a named contact',
    ],
    maxCustomers: UNLIMITED,
    maxPackages: UNLIMITED,
    isMostPopular: false,
    isFeatured: false,
    sortOrder: 3,
  },
];

import { describe, expect, it } from 'vitest';
import { placeAfterStep } from './tier-keyboard-coordinates';

// Three tiers of different heights, listed out of order as the droppable map may hold them.
const places = [
  { id: 'growth', top: 300, height: 260 },
  { id: 'starter', top: 0, height: 280 },
  { id: 'business', top: 580, height: 240 },
];

describe('placeAfterStep', () => {
  it('steps from the place the dragged tier is over now, so each press goes one further', () => {
    expect(placeAfterStep(places, 'starter', 1)?.id).toBe('growth');
    expect(placeAfterStep(places, 'growth', 1)?.id).toBe('business');
    expect(placeAfterStep(places, 'business', -1)?.id).toBe('growth');
  });

  it('goes nowhere past either end', () => {
    expect(placeAfterStep(places, 'business', 1)).toBeUndefined();
    expect(placeAfterStep(places, 'starter', -1)).toBeUndefined();
    expect(placeAfterStep(places, 'unknown', 1)).toBeUndefined();
  });
});

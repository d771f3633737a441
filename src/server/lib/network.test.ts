import { describe } from 'vitest';
import { type CasesByRule, itAnswersEachCase } from '../../../test/support/case-tables.js';
import { networkOf } from './network.js';

/** Each rule of networkOf, with the addresses it reads and the network it answers for each. */
const networksByRule: CasesByRule<string | undefined, string | null> = {
  'answers an IPv4 /24 and an IPv6 /48': [
    ['203.0.113.57', '203.0.113.0/24'],
    ['::ffff:198.51.100.9', '198.51.100.0/24'],
    ['2001:db8:abcd:12::1', '2001:db8:abcd::/48'],
  ],
  'answers null for what is not an address': [
    [undefined, null],
    ['localhost', null],
  ],
};

describe('networkOf', () => {
  itAnswersEachCase(networkOf, networksByRule);
});

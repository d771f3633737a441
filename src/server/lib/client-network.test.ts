import { describe } from 'vitest';
import { type CasesByRule, itAnswersEachCase } from '../../../test/support/case-tables.js';
import { clientLimitSubject, clientNetwork } from './client-network.js';

/** Each rule of clientNetwork, with the addresses it reads and the network it keeps of each. */
const networksByRule: CasesByRule<string | undefined, string | undefined> = {
  'keeps the /24 of an IPv4 address, never the address': [
    ['203.0.113.77', '203.0.113.0/24'],
    ['10.1.2.3', '10.1.2.0/24'],
  ],
  'keeps the /48 of an IPv6 address, written short': [
    ['2001:db8:1234:5678::1', '2001:db8:1234::/48'],
    ['2001:0db8:0000:ffff:0:0:0:1', '2001:db8::/48'],
    ['2001:db8:abcd:12::1%eth0', '2001:db8:abcd::/48'],
    ['::1', '::/48'],
    ['fe80::1', 'fe80::/48'],
  ],
  'treats an IPv4-mapped IPv6 address as IPv4': [
    ['::ffff:198.51.100.9', '198.51.100.0/24'],
    ['::ffff:c633:6409', '198.51.100.0/24'],
  ],
  'answers undefined for what is not an address': [
    [undefined, undefined],
    ['', undefined],
    ['example.com', undefined],
    ['1.2.3', undefined],
    [`${'1:'.repeat(40)}1`, undefined],
  ],
};

/** Each rule of clientLimitSubject, with the addresses it reads and what the rate limits count each as. */
const subjectsByRule: CasesByRule<string, string> = {
  'counts an IPv4 address itself, and an IPv4-mapped one as that IPv4 address': [
    ['203.0.113.77', '203.0.113.77'],
    ['::ffff:198.51.100.9', '198.51.100.9'],
    ['::ffff:c633:6409', '198.51.100.9'],
  ],
  'counts every address of an IPv6 /64 as one, however it is written': [
    ['2001:db8:1:2::a', '2001:db8:1:2::/64'],
    ['2001:db8:1:2:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64'],
    ['2001:0DB8:0001:0002:0:0:0:1%eth0', '2001:db8:1:2::/64'],
    ['2001:db8:1:3::a', '2001:db8:1:3::/64'],
  ],
  'answers anything else as given': [['not-an-address', 'not-an-address']],
};

describe('clientNetwork', () => {
  itAnswersEachCase(clientNetwork, networksByRule);
});

describe('clientLimitSubject', () => {
  itAnswersEachCase(clientLimitSubject, subjectsByRule);
});

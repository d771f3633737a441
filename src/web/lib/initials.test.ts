import { describe } from 'vitest';
import { type CasesByRule, itAnswersEachCase } from '../../../test/support/case-tables.js';
import { initialsOf } from './initials';

/** Each rule of initialsOf, with the names it reads and the initials it shows for each. */
const initialsByRule: CasesByRule<string, string> = {
  'takes the first letters of the first two words, ignoring punctuation': [
    ['sarah-jane', 'SJ'],
    ['s-smith', 'SS'],
    ['Octo Seller', 'OS'],
    ['-dash_first', 'DF'],
  ],
  'takes two letters of a single word': [
    ['octo', 'OC'],
    ['é', 'É'],
  ],
  'reads an e-mail address by its local part': [['mary.ann@example.com', 'MA']],
  'shows a question mark when nothing is left to take': [
    ['--', '?'],
    ['', '?'],
  ],
};

describe('initialsOf', () => {
  itAnswersEachCase(initialsOf, initialsByRule);
});

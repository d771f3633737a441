import { describe } from 'vitest';
import { type CasesByRule, itAnswersEachCase } from '../../../../test/support/case-tables.js';
import { repositoryNameFor } from './repository-name';

/** Each rule of repositoryNameFor, with the hosts it reads and the repository name it gives each. */
const namesByRule: CasesByRule<string, string> = {
  'names the repository after the seller slug of a Packgate package host': [
    ['acme.composer.localhost', 'acme'],
    ['acme.composer.example.com', 'acme'],
  ],
  'skips a leading composer label on a custom domain': [['composer.acme.com', 'acme']],
  'falls back to "private" when the host says nothing about the seller': [
    ['composer.localhost', 'private'],
    ['127.0.0.1', 'private'],
  ],
  'keeps only characters that are valid in a Composer repository name': [
    ['Acme_Tools.composer.localhost', 'acmetools'],
  ],
};

describe('repositoryNameFor', () => {
  itAnswersEachCase(repositoryNameFor, namesByRule);
});

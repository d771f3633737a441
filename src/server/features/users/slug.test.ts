import { describe, expect, it } from 'vitest';
import { type CasesByRule, itAnswersEachCase } from '../../../../test/support/case-tables.js';
import { firstFreeSlug, slugBase } from './slug.js';

/** Each rule of slugBase, with the GitHub usernames or e-mail addresses it reads and the slug base of each. */
const basesByRule: CasesByRule<string, string> = {
  'keeps a GitHub username as it is, in lowercase': [['Octo-Cat', 'octo-cat']],
  'uses the local part of an e-mail address and turns punctuation into hyphens': [
    ['Jane.Doe+shop@example.com', 'jane-doe-shop'],
    ['__john__@example.com', 'john'],
  ],
  'drops accents and characters a host name cannot hold': [['José_Núñez@example.com', 'jose-nunez']],
  'falls back to "seller" when nothing usable is left': [
    ['+++@example.com', 'seller'],
    ['日本@example.com', 'seller'],
  ],
};

/** Each rule of firstFreeSlug, with the bases and the slugs already taken it reads and the slug it hands out for each. */
const freeSlugsByRule: CasesByRule<[base: string, taken: string[]], string> = {
  'takes the base when it is free': [[['acme', []], 'acme']],
  'numbers the slug when the base is taken': [
    [['acme', ['acme']], 'acme-2'],
    [['acme', ['acme', 'acme-2', 'acme-3']], 'acme-4'],
  ],
  'never hands out a name the platform keeps for itself': [
    [['www', []], 'www-2'],
    [['admin', ['admin-2']], 'admin-3'],
  ],
};

describe('seller slugs', () => {
  itAnswersEachCase(slugBase, basesByRule);

  it('stays a valid DNS label when the source is very long', () => {
    const slug = slugBase(`${'a'.repeat(39)}-${'b'.repeat(30)}@example.com`);
    expect(slug.length).toBeLessThanOrEqual(40);
    expect(slug).toMatch(/^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/);
  });

  itAnswersEachCase(([base, taken]) => firstFreeSlug(base, new Set(taken)), freeSlugsByRule);

  it('shortens a long base so the numbered slug still fits', () => {
    const base = 'a'.repeat(40);
    const slug = firstFreeSlug(base, new Set([base]));
    expect(slug).toBe(`${'a'.repeat(38)}-2`);
  });
});

import { describe, expect, it } from 'vitest';
import { firstFreeSlug, slugBase } from './slug.js';

/** Each rule of slugBase, with the GitHub usernames or e-mail addresses it reads and the slug base of each. */
const basesByRule: Record<string, [source: string, base: string][]> = {
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

/** Each rule of firstFreeSlug, with the bases and taken slugs it reads and the slug it hands out for each. */
const freeSlugsByRule: Record<string, [base: string, taken: string[], slug: string][]> = {
  'takes the base when it is free': [['acme', [], 'acme']],
  'numbers the slug when the base is taken': [
    ['acme', ['acme'], 'acme-2'],
    ['acme', ['acme', 'acme-2', 'acme-3'], 'acme-4'],
  ],
  'never hands out a name the platform keeps for itself': [
    ['www', [], 'www-2'],
    ['admin', ['admin-2'], 'admin-3'],
  ],
};

describe('seller slugs', () => {
  it.each(Object.entries(basesByRule))('%s', (_rule, cases) => {
    for (const [source, base] of cases) expect(slugBase(source), source).toBe(base);
  });

  it('stays a valid DNS label when the source is very long', () => {
    const slug = slugBase(`${'a'.repeat(39)}-${'b'.repeat(30)}@example.com`);
    expect(slug.length).toBeLessThanOrEqual(40);
    expect(slug).toMatch(/^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/);
  });

  it.each(Object.entries(freeSlugsByRule))('%s', (_rule, cases) => {
    for (const [base, taken, slug] of cases) expect(firstFreeSlug(base, new Set(taken)), base).toBe(slug);
  });

  it('shortens a long base so the numbered slug still fits', () => {
    const base = 'a'.repeat(40);
    const slug = firstFreeSlug(base, new Set([base]));
    expect(slug).toBe(`${'a'.repeat(38)}-2`);
  });
});

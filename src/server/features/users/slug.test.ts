import { describe, expect, it } from 'vitest';
import { firstFreeSlug, slugBase } from './slug.js';

describe('seller slugs', () => {
  it('keeps a GitHub username as it is, in lowercase', () => {
    expect(slugBase('Octo-Cat')).toBe('octo-cat');
  });

  it('uses the local part of an e-mail address and turns punctuation into hyphens', () => {
    expect(slugBase('Jane.Doe+shop@example.com')).toBe('jane-doe-shop');
    expect(slugBase('__john__@example.com')).toBe('john');
  });

  it('drops accents and characters a host name cannot hold', () => {
    expect(slugBase('José_Núñez@example.com')).toBe('jose-nunez');
  });

  it('falls back to "seller" when nothing usable is left', () => {
    expect(slugBase('+++@example.com')).toBe('seller');
    expect(slugBase('日本@example.com')).toBe('seller');
  });

  it('stays a valid DNS label when the source is very long', () => {
    const slug = slugBase(`${'a'.repeat(39)}-${'b'.repeat(30)}@example.com`);
    expect(slug.length).toBeLessThanOrEqual(40);
    expect(slug).toMatch(/^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/);
  });

  it('takes the base when it is free', () => {
    expect(firstFreeSlug('acme', new Set())).toBe('acme');
  });

  it('numbers the slug when the base is taken', () => {
    expect(firstFreeSlug('acme', new Set(['acme']))).toBe('acme-2');
    expect(firstFreeSlug('acme', new Set(['acme', 'acme-2', 'acme-3']))).toBe('acme-4');
  });

  it('never hands out a name the platform keeps for itself', () => {
    expect(firstFreeSlug('www', new Set())).toBe('www-2');
    expect(firstFreeSlug('admin', new Set(['admin-2']))).toBe('admin-3');
  });

  it('shortens a long base so the numbered slug still fits', () => {
    const base = 'a'.repeat(40);
    const slug = firstFreeSlug(base, new Set([base]));
    expect(slug).toBe(`${'a'.repeat(38)}-2`);
  });
});

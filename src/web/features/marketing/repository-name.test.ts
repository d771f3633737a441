import { describe, expect, it } from 'vitest';
import { repositoryNameFor } from './repository-name';

describe('repositoryNameFor', () => {
  it('names the repository after the seller slug of a Packgate package host', () => {
    expect(repositoryNameFor('acme.composer.localhost')).toBe('acme');
    expect(repositoryNameFor('acme.composer.example.com')).toBe('acme');
  });

  it('skips a leading composer label on a custom domain', () => {
    expect(repositoryNameFor('composer.acme.com')).toBe('acme');
  });

  it('falls back to "private" when the host says nothing about the seller', () => {
    expect(repositoryNameFor('composer.localhost')).toBe('private');
    expect(repositoryNameFor('127.0.0.1')).toBe('private');
  });

  it('keeps only characters that are valid in a Composer repository name', () => {
    expect(repositoryNameFor('Acme_Tools.composer.localhost')).toBe('acmetools');
  });
});

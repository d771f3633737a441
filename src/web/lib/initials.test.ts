import { describe, expect, it } from 'vitest';
import { initialsOf } from './initials';

describe('initialsOf', () => {
  it('takes the first letters of the first two words, ignoring punctuation', () => {
    expect(initialsOf('sarah-jane')).toBe('SJ');
    expect(initialsOf('s-smith')).toBe('SS');
    expect(initialsOf('Octo Seller')).toBe('OS');
    expect(initialsOf('-dash_first')).toBe('DF');
  });

  it('takes two letters of a single word', () => {
    expect(initialsOf('octo')).toBe('OC');
    expect(initialsOf('é')).toBe('É');
  });

  it('reads an e-mail address by its local part', () => {
    expect(initialsOf('mary.ann@example.com')).toBe('MA');
  });

  it('shows a question mark when nothing is left to take', () => {
    expect(initialsOf('--')).toBe('?');
    expect(initialsOf('')).toBe('?');
  });
});

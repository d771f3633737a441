import { describe, expect, it } from 'vitest';
import { COMPOSER_PACKAGE_NAME_MAX_LENGTH, isComposerPackageName } from './composer.js';
import { packageNameSchema } from './packages.js';

// Composer's own rule as ValidatingArrayLoader writes it, less PCRE's possessive `++`/`*+`, in lower case. It
// backtracks exponentially, so it serves here only as the reference on short names.
const COMPOSER_REFERENCE_RULE = /^[a-z0-9](?:[_.-]?[a-z0-9]+)*\/[a-z0-9](?:(?:[_.]|-{1,2})?[a-z0-9]+)*$/;

function* allStrings(alphabet: string[], maxLength: number): Generator<string> {
  let current = [''];
  for (let length = 1; length <= maxLength; length++) {
    current = current.flatMap((prefix) => alphabet.map((character) => prefix + character));
    yield* current;
  }
}

describe('Composer package names', () => {
  it.each([
    'acme/widget',
    'acme/widget-pro',
    'acme/widget--pro',
    'acme-corp/widget_pro.v2',
    'a/b',
    '0/9',
    'a1.b2_c3-d4/e5',
    'acme/a.b_c-d--e',
  ])('accepts %j', (name) => {
    expect(isComposerPackageName(name)).toBe(true);
    expect(packageNameSchema.safeParse(name).success).toBe(true);
  });

  it.each([
    ['no slash', 'acme'],
    ['two slashes', 'acme/widget/extra'],
    ['upper case', 'Acme/widget'],
    ['a leading separator', '-acme/widget'],
    ['a trailing separator', 'acme/widget-'],
    ['two separators in the vendor', 'acme--corp/widget'],
    ['three dashes in the package', 'acme/widget---pro'],
    ['mixed separators', 'acme/widget.-pro'],
    ['a space', 'acme/wid get'],
    ['an empty vendor', '/widget'],
    ['the attacker\'s 36 letters and a "!"', `${'a'.repeat(36)}!/x`],
    ['50,000 letters and a "!" in the package part', `acme/${'a'.repeat(50_000)}!`],
    ['dashes between 10,000 letters and a "!"', `${'a-'.repeat(10_000)}!/x`],
  ])('refuses a name with %s', (_shape, name) => {
    expect(isComposerPackageName(name)).toBe(false);
    expect(packageNameSchema.safeParse(name).success).toBe(false);
  });

  it('refuses a well-formed name over the length bound', () => {
    const name = `acme/${'a'.repeat(COMPOSER_PACKAGE_NAME_MAX_LENGTH)}`;
    expect(isComposerPackageName(name)).toBe(false);
    expect(packageNameSchema.safeParse(name).success).toBe(false);
    expect(isComposerPackageName(name.slice(0, COMPOSER_PACKAGE_NAME_MAX_LENGTH))).toBe(true);
  });

  it("accepts exactly the names Composer's rule accepts, for every name of up to 7 characters", () => {
    const differences: string[] = [];
    let accepted = 0;
    for (const name of allStrings(['a', '0', '_', '.', '-', '/'], 7)) {
      const expected = COMPOSER_REFERENCE_RULE.test(name);
      if (expected) accepted++;
      if (isComposerPackageName(name) !== expected) differences.push(name);
    }
    expect(differences).toEqual([]);
    expect(accepted).toBeGreaterThan(2000);
  });
});

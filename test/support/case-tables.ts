import { expect, it } from 'vitest';

/** The cases of a rule-by-rule test: under each rule's wording, the inputs it reads and what each must give. */
export type CasesByRule<Input, Output> = Record<string, [input: Input, expected: Output][]>;

/**
 * Declares one test per rule, named with the rule's wording, checking that `answer` gives each of the rule's inputs
 * its expected value (toEqual: for a string, number, boolean, null or undefined the same check as toBe).
 */
export function itAnswersEachCase<Input, Output>(
  answer: (input: Input) => Output,
  rules: CasesByRule<Input, Output>,
): void {
  it.each(Object.entries(rules))('%s', (_rule, cases) => {
    for (const [input, expected] of cases) expect(answer(input), JSON.stringify(input)).toEqual(expected);
  });
}

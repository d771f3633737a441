import { z } from 'zod';

/**
 * A form schema's last step (issue 29 item 7): turn the form's values (text from inputs) into the contract's input
 * and check that with the contract's own schema, so that what a form sends is what its route accepts. A problem the
 * contract finds lands on the form as an error at the same path. (zod's pipe() would need the contract's input type
 * to equal the mapped one, which optional fields never do.)
 */
export function intoContract<Contract extends z.ZodType, Values>(
  contract: Contract,
  map: (values: Values) => z.input<Contract>,
  /** Where a contract path that is no form field shows (`{ 'credentials.password': 'password' }`). */
  fieldOf: Record<string, string> = {},
) {
  return (values: Values, context: z.RefinementCtx): z.output<Contract> => {
    const checked = contract.safeParse(map(values));
    if (checked.success) return checked.data;
    for (const issue of checked.error.issues) {
      const path = issue.path.map(String).join('.');
      context.addIssue({ code: 'custom', path: (fieldOf[path] ?? path).split('.'), message: issue.message });
    }
    return z.NEVER;
  };
}

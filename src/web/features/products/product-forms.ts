import { z } from 'zod';
import { issueLicensesInput } from '../../../contract/licenses';
import { createProductInput } from '../../../contract/products';
import { intoContract } from '../../lib/contract-form';

// The Products tab's forms for react-hook-form (issue 29 item 7). Inputs hold text (an empty description or version
// range, digits for seats) where the contract takes null and numbers: each schema maps the text into the contract's
// input and checks it with the contract's own schema and messages.

/** A product: its name, description and packages; the same body creates it (POST) and replaces it (PATCH). */
export const productForm = z
  .object({ name: z.string(), description: z.string(), packageIds: z.array(z.string()) })
  .transform(
    intoContract(createProductInput, ({ name, description, packageIds }) => ({
      name,
      description: description.trim() || null,
      packageIds,
    })),
  );
export type ProductFormValues = z.input<typeof productForm>;

/** A holder licensed for the product: one license covering its packages, with an optional range and seats. */
export const productLicenseForm = (productId: string) =>
  z.object({ email: z.string(), versionConstraint: z.string(), seats: z.string() }).transform(
    intoContract(issueLicensesInput, ({ email, versionConstraint, seats }) => ({
      email: email.trim(),
      productId,
      versionConstraint: versionConstraint.trim() || null,
      seats: seats.trim() ? Number(seats) : null,
    })),
  );
export type ProductLicenseFormValues = z.input<ReturnType<typeof productLicenseForm>>;

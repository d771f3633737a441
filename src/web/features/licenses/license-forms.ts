import { z } from 'zod';
import {
  createTemporaryLicenseInput,
  grantEndModes,
  issueLicensesInput,
  LICENSE_NOTE_MAX_LENGTH,
  licenseStabilities,
  updateLicenseInput,
} from '../../../contract/licenses';
import { TEMPORARY_LICENSE_DEFAULT_DAYS } from '../../lib/constants';
import { intoContract } from '../../lib/contract-form';
import { type LicenseTermsForm, termsInput, termsProblems } from './lasting-license-rules';
import { temporaryLicenseMessages } from './license-rules';

// The license dialogs' forms for react-hook-form (issue 29 item 7). Their inputs hold text (a date input's day,
// digits from a number input, an empty field for "unlimited"), while the contract takes an ISO instant, numbers
// and null; so each schema checks the text with the messages the server answers, turns it into the contract's
// input and checks that with the contract's own schema: what the form sends is what the route accepts.

/** The holder's e-mail, required with the spec's sentence; its format is the server's to judge (it names it). */
const holderEmail = z.string().trim().min(1, temporaryLicenseMessages.emailRequired);

const termsShape = {
  expiresOn: z.string(),
  downloadLimit: z.string(),
  endMode: z.enum(grantEndModes),
  note: z.string().max(LICENSE_NOTE_MAX_LENGTH),
  versionConstraint: z.string(),
  minimumStability: z.enum(licenseStabilities),
  seats: z.string(),
};

/** Each problem termsProblems finds, on its field; read at submit so that "today" is the day the form is sent. */
const checkTerms = (form: LicenseTermsForm, context: z.RefinementCtx) => {
  for (const [field, message] of Object.entries(termsProblems(form, new Date()))) {
    context.addIssue({ code: 'custom', path: [field], message });
  }
};

/** Issue a license: a holder, the packages it covers (one license each) and the terms. */
export const issueLicenseForm = z
  .object({ ...termsShape, email: holderEmail, sendEmail: z.boolean(), packageIds: z.array(z.string()).min(1) })
  .superRefine(checkTerms)
  .transform(
    intoContract(issueLicensesInput, ({ email, sendEmail, packageIds, ...terms }) => ({
      email,
      sendEmail,
      packageIds,
      ...termsInput(terms),
    })),
  );
export type IssueLicenseFormValues = z.input<typeof issueLicenseForm>;

/** Change a license's terms: every term is sent, so that a field emptied clears it (null). */
export const editLicenseForm = z
  .object(termsShape)
  .superRefine(checkTerms)
  .transform(intoContract(updateLicenseInput, termsInput));
export type EditLicenseFormValues = z.input<typeof editLicenseForm>;

/** Create a temporary license: the duration comes from a select (a number), an empty note is sent as null. */
export const temporaryLicenseForm = z
  .object({ email: holderEmail, durationDays: z.number().int(), note: z.string().max(1000) })
  .transform(
    intoContract(createTemporaryLicenseInput.unwrap().unwrap(), ({ note, ...rest }) => ({
      ...rest,
      note: note.trim() || null,
    })),
  );
export type TemporaryLicenseFormValues = z.input<typeof temporaryLicenseForm>;

export const emptyTemporaryLicenseForm: TemporaryLicenseFormValues = {
  email: '',
  durationDays: TEMPORARY_LICENSE_DEFAULT_DAYS,
  note: '',
};

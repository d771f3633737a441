import { SUBJECT_EXAMPLES } from '@contract/oidc-ci-steps';
import { OIDC_ISSUER_PRESETS, OIDC_TRUST_LIMITS } from '@contract/oidc-trusts';
import { FormAlert, FormInput, FormSelect } from '@web/components/form-field';
import { Button } from '@web/components/ui/button';
import { errorMessage } from '@web/lib/api-error';
import { useSchemaForm } from '@web/lib/schema-form';
import { Loader2, Plus } from 'lucide-react';
import { z } from 'zod';
import { useAddOidcTrust } from './ci-identities-hooks';

// Adding a trusted CI identity: the issuer from a preset (GitHub Actions, gitlab.com) or typed (a self-managed
// GitLab, any OIDC issuer), the audience the job will ask its token for, and the subject it must carry.

const issuerChoiceValues = ['github', 'gitlab', 'gitlab-self-managed', 'other'] as const;
type IssuerChoice = (typeof issuerChoiceValues)[number];

const issuerChoiceLabels: Record<IssuerChoice, string> = {
  github: 'GitHub Actions',
  gitlab: 'GitLab (gitlab.com)',
  'gitlab-self-managed': 'GitLab (self-managed)',
  other: 'Another OIDC issuer',
};

function presetIssuer(choice: IssuerChoice): string | undefined {
  if (choice === 'github') return OIDC_ISSUER_PRESETS.githubActions;
  if (choice === 'gitlab') return OIDC_ISSUER_PRESETS.gitlab;
  return undefined;
}

// react-hook-form (issue 29): required fields and lengths checked before sending; the server checks the issuer
// (https, discovery) and the subject's wildcard, and its refusal is the form's error.
const ciIdentityForm = z.object({
  name: z.string().trim().min(1, 'Name the identity.').max(OIDC_TRUST_LIMITS.name),
  choice: z.enum(issuerChoiceValues),
  issuerUrl: z.string().trim().max(OIDC_TRUST_LIMITS.issuer),
  audience: z.string().trim().max(OIDC_TRUST_LIMITS.audience),
  subject: z.string().trim().min(1, 'Give the subject the job’s token carries.').max(OIDC_TRUST_LIMITS.subject),
});

export function CiIdentityForm({ basePath, defaultAudience }: { basePath: string; defaultAudience: string }) {
  const add = useAddOidcTrust(basePath);
  const form = useSchemaForm(ciIdentityForm, {
    name: '',
    choice: 'github',
    issuerUrl: '',
    audience: defaultAudience,
    subject: '',
  });
  const { errors } = form.formState;
  const [choice, name, subject] = form.watch(['choice', 'name', 'subject']);
  const subjectExample = choice === 'github' ? SUBJECT_EXAMPLES.githubActions : SUBJECT_EXAMPLES.gitlab;

  const submit = form.handleSubmit((values) =>
    add
      .mutateAsync({
        name: values.name,
        issuer: presetIssuer(values.choice) ?? values.issuerUrl,
        audience: values.audience,
        subject: values.subject,
      })
      .then(
        () => form.reset({ ...values, name: '', subject: '' }),
        (error: unknown) =>
          form.setError('root.server', { message: errorMessage(error, 'The CI identity could not be added.') }),
      ),
  );

  return (
    <form onSubmit={submit} className="space-y-4 rounded-md border p-4" noValidate data-testid="ci-identity-form">
      <p className="text-sm font-medium">Add a trusted CI identity</p>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormInput
          form={form}
          name="name"
          id="ci-identity-name"
          label="Name"
          maxLength={OIDC_TRUST_LIMITS.name}
          placeholder="Shop deploys from main"
        />
        <FormSelect
          form={form}
          name="choice"
          id="ci-identity-issuer"
          label="CI system"
          values={issuerChoiceValues}
          optionLabel={(choice) => issuerChoiceLabels[choice]}
        />
        {presetIssuer(choice) === undefined && (
          <FormInput
            form={form}
            name="issuerUrl"
            id="ci-identity-issuer-url"
            label="Issuer URL"
            fieldClassName="sm:col-span-2"
            maxLength={OIDC_TRUST_LIMITS.issuer}
            placeholder="https://gitlab.example.com"
          />
        )}
        <FormInput
          form={form}
          name="audience"
          id="ci-identity-audience"
          label="Audience"
          maxLength={OIDC_TRUST_LIMITS.audience}
        />
        <FormInput
          form={form}
          name="subject"
          id="ci-identity-subject"
          label="Subject"
          maxLength={OIDC_TRUST_LIMITS.subject}
          placeholder={subjectExample}
        />
      </div>
      <p className="text-xs text-muted-foreground">
        The subject must match the job's token exactly, for example <code>{subjectExample}</code>. To trust every branch
        of a repository, end it with <code>*</code> right after <code>:</code> or <code>/</code>.
      </p>
      <FormAlert message={errors.root?.server?.message} />
      <Button type="submit" disabled={add.isPending || name.trim() === '' || subject.trim() === ''}>
        {add.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Plus aria-hidden="true" />}
        Add CI identity
      </Button>
    </form>
  );
}

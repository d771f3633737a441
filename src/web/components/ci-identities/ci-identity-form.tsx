import { SUBJECT_EXAMPLES } from '@contract/oidc-ci-steps';
import { OIDC_ISSUER_PRESETS, OIDC_TRUST_LIMITS } from '@contract/oidc-trusts';
import { Button } from '@web/components/ui/button';
import { Input } from '@web/components/ui/input';
import { Label } from '@web/components/ui/label';
import { NativeSelect } from '@web/components/ui/native-select';
import { errorMessage } from '@web/lib/api-error';
import { Loader2, Plus } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { useAddOidcTrust } from './ci-identities-hooks';

// Adding a trusted CI identity: the issuer from a preset (GitHub Actions, gitlab.com) or typed (a self-managed
// GitLab, any OIDC issuer), the audience the job will ask its token for, and the subject it must carry.

type IssuerChoice = 'github' | 'gitlab' | 'gitlab-self-managed' | 'other';

const issuerChoices: { value: IssuerChoice; label: string }[] = [
  { value: 'github', label: 'GitHub Actions' },
  { value: 'gitlab', label: 'GitLab (gitlab.com)' },
  { value: 'gitlab-self-managed', label: 'GitLab (self-managed)' },
  { value: 'other', label: 'Another OIDC issuer' },
];

function presetIssuer(choice: IssuerChoice): string | undefined {
  if (choice === 'github') return OIDC_ISSUER_PRESETS.githubActions;
  if (choice === 'gitlab') return OIDC_ISSUER_PRESETS.gitlab;
  return undefined;
}

export function CiIdentityForm({ basePath, defaultAudience }: { basePath: string; defaultAudience: string }) {
  const add = useAddOidcTrust(basePath);
  const [choice, setChoice] = useState<IssuerChoice>('github');
  const [name, setName] = useState('');
  const [issuerUrl, setIssuerUrl] = useState('');
  const [audience, setAudience] = useState(defaultAudience);
  const [subject, setSubject] = useState('');
  const issuer = presetIssuer(choice) ?? issuerUrl;
  const subjectExample = choice === 'github' ? SUBJECT_EXAMPLES.githubActions : SUBJECT_EXAMPLES.gitlab;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate(
      { name, issuer, audience, subject },
      {
        onSuccess: () => {
          setName('');
          setSubject('');
        },
      },
    );
  };

  return (
    <form onSubmit={submit} className="space-y-4 rounded-md border p-4" noValidate data-testid="ci-identity-form">
      <p className="text-sm font-medium">Add a trusted CI identity</p>
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="space-y-2">
          <Label htmlFor="ci-identity-name">Name</Label>
          <Input
            id="ci-identity-name"
            value={name}
            maxLength={OIDC_TRUST_LIMITS.name}
            onChange={(event) => setName(event.target.value)}
            placeholder="Shop deploys from main"
          />
        </div>
        <div className="space-y-2">
          <Label htmlFor="ci-identity-issuer">CI system</Label>
          <NativeSelect
            id="ci-identity-issuer"
            value={choice}
            onChange={(event) => setChoice(event.target.value as IssuerChoice)}
          >
            {issuerChoices.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </NativeSelect>
        </div>
        {presetIssuer(choice) === undefined && (
          <div className="space-y-2 sm:col-span-2">
            <Label htmlFor="ci-identity-issuer-url">Issuer URL</Label>
            <Input
              id="ci-identity-issuer-url"
              value={issuerUrl}
              maxLength={OIDC_TRUST_LIMITS.issuer}
              onChange={(event) => setIssuerUrl(event.target.value)}
              placeholder="https://gitlab.example.com"
            />
          </div>
        )}
        <div className="space-y-2">
          <Label htmlFor="ci-identity-audience">Audience</Label>
          <Input
            id="ci-identity-audience"
            value={audience}
            maxLength={OIDC_TRUST_LIMITS.audience}
            onChange={(event) => setAudience(event.target.value)}
          />
        </div>
        <div className="space-y-2">
          <Label htmlFor="ci-identity-subject">Subject</Label>
          <Input
            id="ci-identity-subject"
            value={subject}
            maxLength={OIDC_TRUST_LIMITS.subject}
            onChange={(event) => setSubject(event.target.value)}
            placeholder={subjectExample}
          />
        </div>
      </div>
      <p className="text-xs text-muted-foreground">
        The subject must match the job's token exactly, for example <code>{subjectExample}</code>. To trust every branch
        of a repository, end it with <code>*</code> right after <code>:</code> or <code>/</code>.
      </p>
      {add.isError && (
        <p className="text-sm text-destructive" role="alert">
          {errorMessage(add.error, 'The CI identity could not be added.')}
        </p>
      )}
      <Button type="submit" disabled={add.isPending || name.trim() === '' || subject.trim() === ''}>
        {add.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Plus aria-hidden="true" />}
        Add CI identity
      </Button>
    </form>
  );
}

import { ADVISORY_SEVERITIES, createAdvisoryInput } from '@contract/lifecycle';
import { Loader2 } from 'lucide-react';
import { z } from 'zod';
import { FormInput, FormSelect } from '../../components/form-field';
import { Button } from '../../components/ui/button';
import { intoContract } from '../../lib/contract-form';
import { useSchemaForm } from '../../lib/schema-form';
import { usePublishAdvisory } from './lifecycle-hooks';

/**
 * The form's values are the inputs' text; the contract's createAdvisoryInput checks them with the server's own rules
 * and messages. An empty CVE or link is none, an empty day is today (left out).
 */
const advisoryForm = z
  .object({
    title: z.string(),
    affectedVersions: z.string(),
    severity: z.enum(ADVISORY_SEVERITIES),
    cve: z.string(),
    link: z.string(),
    reportedAt: z.string(),
  })
  .transform(
    intoContract(createAdvisoryInput, ({ title, affectedVersions, severity, cve, link, reportedAt }) => ({
      title,
      affectedVersions,
      severity,
      cve: cve.trim() || null,
      link: link.trim() || null,
      ...(reportedAt ? { reportedAt } : {}),
    })),
  );
type AdvisoryFormValues = z.input<typeof advisoryForm>;

const EMPTY_ADVISORY: AdvisoryFormValues = {
  title: '',
  affectedVersions: '',
  severity: 'high',
  cve: '',
  link: '',
  reportedAt: '',
};

/** Publish an advisory (issue 13): what `composer audit` shows holders of the affected versions. */
export function PublishAdvisoryForm({ packageId }: { packageId: string }) {
  const publish = usePublishAdvisory(packageId);
  const form = useSchemaForm(advisoryForm, EMPTY_ADVISORY);
  // The two required fields keep the button disabled until they have text, as before the form library.
  const [title, affectedVersions] = form.watch(['title', 'affectedVersions']);
  // The server's refusal (an unparsable constraint) shows as the mutation's toast; a success starts a new form.
  const submit = form.handleSubmit((input) =>
    publish.mutate(input, { onSuccess: () => form.reset({ ...EMPTY_ADVISORY, severity: input.severity }) }),
  );

  return (
    <form onSubmit={submit} className="grid gap-3 rounded-md border p-3 sm:grid-cols-2" noValidate>
      <p className="text-sm font-medium sm:col-span-2">Publish an advisory</p>
      <FormInput form={form} name="title" id="advisory-title" label="Title *" fieldClassName="sm:col-span-2" />
      <FormInput
        form={form}
        name="affectedVersions"
        id="advisory-affected"
        label="Affected versions *"
        className="font-mono"
        placeholder=">=1.0,<1.4.2"
      />
      <FormSelect form={form} name="severity" id="advisory-severity" label="Severity" values={ADVISORY_SEVERITIES} />
      <FormInput form={form} name="cve" id="advisory-cve" label="CVE" placeholder="CVE-2026-12345" />
      <FormInput form={form} name="reportedAt" id="advisory-date" label="Reported on" type="date" />
      <FormInput
        form={form}
        name="link"
        id="advisory-link"
        label="Link"
        fieldClassName="sm:col-span-2"
        type="url"
        placeholder="https://"
      />
      <div className="flex justify-end sm:col-span-2">
        <Button type="submit" disabled={publish.isPending || !title.trim() || !affectedVersions.trim()}>
          {publish.isPending && <Loader2 className="animate-spin" />}
          Publish Advisory
        </Button>
      </div>
    </form>
  );
}

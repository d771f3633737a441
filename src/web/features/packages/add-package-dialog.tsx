import { CLIENT_ROUTES } from '@contract/client-routes';
import { createPackageInput } from '@contract/packages';
import { CheckCircle2, Loader2, RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
import { z } from 'zod';
import { TitledDialog } from '../../components/form-dialog';
import { FormField, FormInput } from '../../components/form-field';
import { Button } from '../../components/ui/button';
import { DialogFooter } from '../../components/ui/dialog';
import { Textarea } from '../../components/ui/textarea';
import { toast } from '../../components/ui/use-toast';
import { cn } from '../../lib/cn';
import { REPOSITORY_REFRESH_DELAY_MS } from '../../lib/constants';
import { intoContract } from '../../lib/contract-form';
import { usePublicConfig } from '../../lib/public-config';
import { useSchemaForm } from '../../lib/schema-form';
import { GitUrlPackageForm } from './git-url-package';
import { PackageActiveSwitch } from './package-active-switch';
import { useCreatePackage, usePackages } from './package-hooks';
import {
  newPackageProblem,
  type PackageDetails,
  prefillPackageDetails,
  repositoryRefreshFailure,
} from './package-rules';
import { type PickedRepository, useRepositoryGroups } from './repository-groups';
import { packagesByRepository, RepositoryList } from './repository-list';

/**
 * The package's details as the form holds them (the inputs' text and the switch), checked by the contract's own
 * rules for those fields; the picked repository is not a field: it comes from the list on the left.
 */
const packageDetailsForm = z
  .object({ packageName: z.string(), description: z.string(), isActive: z.boolean() })
  .transform(
    intoContract(
      createPackageInput.pick({ packageName: true, description: true, isActive: true }),
      ({ packageName, description, isActive }) => ({ packageName, description: description.trim() || null, isActive }),
    ),
  );
type PackageDetailsFormValues = z.input<typeof packageDetailsForm>;
const emptyDetails: PackageDetailsFormValues = { packageName: '', description: '', isActive: true };
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Add New Package (spec seller-app §2, §4, §5): pick a repository, then name the package. */
export function AddPackageDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const repositories = useRepositoryGroups(open);
  const packages = usePackages();
  const { data: config } = usePublicConfig();
  const create = useCreatePackage();
  const [selected, setSelected] = useState<PickedRepository>();
  const form = useSchemaForm(packageDetailsForm, emptyDetails);
  const { errors } = form.formState;
  const [isRefreshing, setIsRefreshing] = useState(false);

  const reset = () => {
    setSelected(undefined);
    form.reset(emptyDetails);
    create.reset();
  };

  const close = () => {
    onOpenChange(false);
    reset();
  };

  const existing = packagesByRepository(packages.data);

  const select = (repository: PickedRepository) => {
    if (!repository.hasComposerJson || existing.has(repository.githubId)) return;
    const current: PackageDetails = form.getValues();
    const prefilled = prefillPackageDetails(current, selected, repository);
    form.setValue('packageName', prefilled.packageName);
    form.setValue('description', prefilled.description);
    setSelected(repository);
  };

  const refresh = async () => {
    setIsRefreshing(true);
    try {
      await wait(REPOSITORY_REFRESH_DELAY_MS);
      const count = await repositories.refetch();
      toast({
        title: 'Repositories Updated!',
        description: `${count} ${count === 1 ? 'repository' : 'repositories'} found`,
      });
    } catch {
      toast({
        variant: 'destructive',
        title: 'Refresh Failed',
        description: repositoryRefreshFailure(Boolean(config?.githubSignIn)),
      });
    } finally {
      setIsRefreshing(false);
    }
  };

  const packageName = form.watch('packageName');
  const problem = newPackageProblem(selected, packageName);

  const submit = form.handleSubmit((details) => {
    if (problem || !selected) {
      toast({ variant: 'destructive', title: 'Error', description: problem });
      return;
    }
    create.mutate(
      {
        githubRepoId: selected.githubId,
        ...(selected.connectionId ? { connectionId: selected.connectionId } : {}),
        fullName: selected.fullName,
        ...details,
      },
      { onSuccess: close },
    );
  });

  return (
    <TitledDialog
      open={open}
      onClose={() => !create.isPending && close()}
      className="max-w-4xl"
      title="Add New Package"
      description="Turn a private repository with a composer.json into a Composer package your license holders can install."
    >
      {repositories.offerGithubApp && (
        <p className="rounded-md border border-amber-500/50 bg-amber-500/10 p-3 text-sm" data-testid="github-app-offer">
          Your GitHub connection can read and write every repository your account reaches.{' '}
          <Link href={CLIENT_ROUTES.codeHosts} className="font-medium underline">
            Install the GitHub App
          </Link>{' '}
          to give Packgate read access to the repositories you pick only; your packages move to it.
        </p>
      )}

      <form id="add-package-form" onSubmit={submit} className="grid gap-6 md:grid-cols-2" noValidate>
        <section className="min-w-0 space-y-3" aria-labelledby="add-package-step-1">
          <div className="flex items-center justify-between gap-2">
            <StepHeading id="add-package-step-1" step={1} title="Select Repository" done={Boolean(selected)} />
            <Button
              type="button"
              variant="outline"
              size="sm"
              onClick={refresh}
              disabled={isRefreshing || repositories.isFetching}
            >
              <RefreshCw className={cn((isRefreshing || repositories.isFetching) && 'animate-spin')} />
              Refresh
            </Button>
          </div>
          {repositories.groups.length === 0 && !repositories.isLoading ? (
            <RepositoryList
              repositories={[]}
              isLoading={false}
              error={undefined}
              existing={existing}
              selectedId={undefined}
              onSelect={select}
            />
          ) : repositories.groups.length === 0 ? (
            <RepositoryList
              repositories={undefined}
              isLoading
              error={undefined}
              existing={existing}
              selectedId={undefined}
              onSelect={select}
            />
          ) : (
            repositories.groups.map((group) => (
              <div key={group.key} className="space-y-2" data-testid="repository-group">
                {group.label && <p className="text-xs font-medium text-muted-foreground">{group.label}</p>}
                <RepositoryList
                  repositories={group.repositories}
                  isLoading={group.isLoading}
                  error={group.error}
                  existing={existing}
                  selectedId={selected?.connectionId === group.connectionId ? selected?.githubId : undefined}
                  onSelect={select}
                />
              </div>
            ))
          )}
        </section>

        <section className="min-w-0 space-y-4" aria-labelledby="add-package-step-2">
          <StepHeading
            id="add-package-step-2"
            step={2}
            title="Package Details"
            done={Boolean(selected && packageName.trim())}
          />
          <fieldset disabled={!selected} className="space-y-4 disabled:opacity-60">
            <FormInput
              form={form}
              name="packageName"
              id="add-package-name"
              label="Package Name *"
              hint="What license holders type after composer require: vendor/package, lower case."
              className="font-mono"
              placeholder="vendor/package"
              autoComplete="off"
              required
            />
            <FormField id="add-package-description" label="Description" error={errors.description?.message}>
              {(control) => (
                <Textarea {...control} placeholder="What the package does" rows={3} {...form.register('description')} />
              )}
            </FormField>
            <PackageActiveSwitch
              id="add-package-active"
              control={form.control}
              hint="Only active packages can be installed."
            />
          </fieldset>
          <NextSteps />
        </section>
      </form>

      <details className="rounded-md border p-3" data-testid="git-url-section">
        <summary className="cursor-pointer text-sm font-medium">
          Or add a repository from any git server by its URL
        </summary>
        <div className="pt-3">
          <GitUrlPackageForm onDone={close} />
        </div>
      </details>

      <DialogFooter className="items-center gap-2 sm:justify-between">
        <p className="text-sm text-muted-foreground" aria-live="polite">
          {problem}
        </p>
        <div className="flex flex-col-reverse gap-2 sm:flex-row">
          <Button type="button" variant="outline" onClick={close} disabled={create.isPending}>
            Cancel
          </Button>
          <Button type="submit" form="add-package-form" disabled={Boolean(problem) || create.isPending}>
            {create.isPending && <Loader2 className="animate-spin" />}
            Create Package
          </Button>
        </div>
      </DialogFooter>
    </TitledDialog>
  );
}

function StepHeading({ id, step, title, done }: { id: string; step: number; title: string; done: boolean }) {
  return (
    <h3 id={id} className="flex items-center gap-2 text-sm font-semibold">
      <span
        className={cn(
          'flex size-6 items-center justify-center rounded-full text-xs',
          done ? 'bg-green-600 text-white' : 'bg-primary text-primary-foreground',
        )}
      >
        {done ? <CheckCircle2 className="size-4" /> : step}
      </span>
      {title}
    </h3>
  );
}

function NextSteps() {
  return (
    <div className="rounded-md border border-primary/20 bg-primary/5 p-4 text-sm">
      <p className="font-semibold">Next Steps</p>
      <ol className="mt-2 list-decimal space-y-1 pl-5 text-muted-foreground">
        <li>Packgate reads the repository's tags and branches; the progress shows under the header.</li>
        <li>Grant access: a temporary license from the package's menu, or licenses through the API.</li>
        <li>License holders follow the Setup Guide, with the token from their e-mail.</li>
      </ol>
    </div>
  );
}

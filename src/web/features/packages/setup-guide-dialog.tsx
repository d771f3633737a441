import { Info } from 'lucide-react';
import { CopyCommand } from '../../components/copy-command';
import { TitledDialog } from '../../components/form-dialog';
import { StepNumber } from '../../components/numbered-step';
import { useCurrentUser } from '../../lib/current-user';
import type { Package } from './package-hooks';
import { isPlainHttp, setupGuideSteps, TOKEN_PLACEHOLDER } from './setup-commands';

/** Setup Guide (spec seller-app §2, §9): the three steps a license holder follows, with copy buttons. */
export function SetupGuideDialog({
  pkg,
  repositoryUrl,
  onClose,
}: {
  pkg: Package | undefined;
  repositoryUrl: string | undefined;
  onClose: () => void;
}) {
  const { data: user } = useCurrentUser();
  const steps = pkg && repositoryUrl && user ? setupGuideSteps(repositoryUrl, user.slug, pkg.packageName) : [];
  return (
    <TitledDialog
      open={Boolean(pkg)}
      onClose={onClose}
      title="Setup Guide"
      description={
        <>
          How a license holder installs <span className="font-mono text-foreground">{pkg?.packageName}</span>. Their
          license e-mail carries the same commands with their own token in place of {TOKEN_PLACEHOLDER}.
        </>
      }
    >
      {!repositoryUrl ? (
        <p className="text-sm text-muted-foreground">Loading repository details...</p>
      ) : (
        <ol className="space-y-5">
          {steps.map((step, index) => (
            <li key={step.title} className="flex gap-4" data-testid="setup-step">
              <StepNumber number={index + 1} className="size-7" />
              <div className="min-w-0 flex-1 space-y-2">
                <h3 className="font-semibold leading-7">{step.title}</h3>
                <p className="text-sm text-muted-foreground">{step.description}</p>
                {step.commands.map((command) => (
                  <CopyCommand key={command} command={command} />
                ))}
              </div>
            </li>
          ))}
        </ol>
      )}
      {repositoryUrl && isPlainHttp(repositoryUrl) && (
        <p className="flex items-start gap-2 rounded-md border p-3 text-xs text-muted-foreground">
          <Info className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          This repository is served over plain http, which Composer refuses unless secure-http is turned off: hence the
          second command of step 1.
        </p>
      )}
    </TitledDialog>
  );
}

import { AlertTriangle, CheckCircle2, FlaskConical, KeyRound, Loader2 } from 'lucide-react';
import { useSearchParams } from 'wouter';
import { CopyButton } from '../../components/copy-button';
import { CopyCommand } from '../../components/copy-command';
import { StepNumber } from '../../components/numbered-step';
import { Badge } from '../../components/ui/badge';
import { Card, CardContent } from '../../components/ui/card';
import { errorMessage } from '../../lib/api-error';
import { hasNothingLoaded } from '../../lib/query-state';
import { BuyerPageShell } from './buyer-page-shell';
import { setupSteps } from './pricing-rules';
import { type PurchaseResult, usePurchaseResult } from './sales-hooks';

/**
 * /purchase/success?session_id={id} on a seller's repository host (issue 11): once paid, the repository URL, the
 * buyer's token and the three setup commands with copy buttons; the same went to the buyer by e-mail.
 */
export function PurchaseSuccessPage() {
  const [params] = useSearchParams();
  const sessionId = params.get('session_id') ?? '';
  const result = usePurchaseResult(sessionId);
  return (
    <BuyerPageShell title="Purchase complete">
      <div className="mx-auto max-w-3xl">
        {!sessionId ? (
          <Problem title="Purchase not found" text="This address names no purchase." />
        ) : result.isLoading || result.data?.status === 'pending' ? (
          <div className="flex flex-col items-center gap-3 py-20 text-center" aria-busy="true">
            <Loader2 className="size-8 animate-spin text-muted-foreground" aria-hidden="true" />
            <h1 className="text-2xl font-bold tracking-tight">Confirming your payment...</h1>
            <p className="text-muted-foreground">This takes a few seconds. Keep this page open.</p>
          </div>
        ) : hasNothingLoaded(result) || !result.data ? (
          <Problem title="Purchase not found" text={errorMessage(result.error, 'Purchase not found')} />
        ) : result.data.status === 'expired' ? (
          <Problem
            title="Checkout expired"
            text="This checkout ended before it was paid. Nothing was charged: go back to the purchase page to try again."
          />
        ) : result.data.status === 'refunded' ? (
          <Problem
            title="Purchase refunded"
            text={`This purchase of ${result.data.packageName} was refunded, and its access has ended.`}
          />
        ) : (
          <Complete result={result.data} />
        )}
      </div>
    </BuyerPageShell>
  );
}

function Problem({ title, text }: { title: string; text: string }) {
  return (
    <div className="flex flex-col items-center gap-3 py-16 text-center">
      <AlertTriangle className="size-10 text-muted-foreground" aria-hidden="true" />
      <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
      <p className="max-w-md text-muted-foreground">{text}</p>
    </div>
  );
}

function Complete({ result }: { result: PurchaseResult }) {
  const steps = setupSteps(result.setupCommands);
  return (
    <div className="space-y-8" data-testid="purchase-complete">
      <header className="space-y-3 text-center">
        <div className="mx-auto flex size-14 items-center justify-center rounded-full bg-green-600/10 text-green-600">
          <CheckCircle2 className="size-8" aria-hidden="true" />
        </div>
        <h1 className="text-3xl font-bold tracking-tight">Thank you for your purchase</h1>
        <p className="text-muted-foreground">
          <span className="break-all font-mono text-foreground">{result.packageName}</span> ({result.tierName}) is
          yours.
          {result.productName ? ` It covers ${result.packageNames.join(', ')}.` : ''}
          {result.customerEmail
            ? ` We sent the repository URL, your token and these commands to ${result.customerEmail}.`
            : ''}
        </p>
        {result.testMode && (
          <Badge variant="outline" className="gap-1 border-amber-500/60 text-amber-700 dark:text-amber-400">
            <FlaskConical className="size-3.5" aria-hidden="true" /> Test purchase
          </Badge>
        )}
      </header>

      <Card>
        <CardContent className="space-y-5 p-5 sm:p-6">
          <div className="space-y-2">
            <h2 className="text-sm font-semibold">Repository URL</h2>
            <CopyableValue value={result.repositoryUrl} testId="repository-url" copyLabel="Copy URL" />
          </div>
          <div className="space-y-2">
            <h2 className="flex items-center gap-2 text-sm font-semibold">
              <KeyRound className="size-4" aria-hidden="true" /> Your access token
            </h2>
            {result.token ? (
              <>
                <CopyableValue value={result.token} testId="buyer-token" copyLabel="Copy Token" />
                <p className="text-xs text-muted-foreground">
                  Keep it secret: it works like a password for this repository. It is also in your e-mail.
                </p>
              </>
            ) : (
              <p className="text-sm text-muted-foreground" data-testid="existing-token-note">
                {result.hasExistingToken
                  ? 'You already have a token for this repository: the package was added to it. Use it where the commands say YOUR_TOKEN.'
                  : 'Your token is in the e-mail we sent you. Use it where the commands say YOUR_TOKEN.'}
              </p>
            )}
          </div>
        </CardContent>
      </Card>

      <section className="space-y-4" aria-labelledby="setup-steps">
        <h2 id="setup-steps" className="text-xl font-semibold">
          Install it in three steps
        </h2>
        <ol className="space-y-4">
          {steps.map((step, index) => (
            <li key={step.title}>
              <div className="flex items-center gap-3 sm:gap-4">
                <StepNumber number={index + 1} />
                <h3 className="font-medium">{step.title}</h3>
              </div>
              <div className="mt-2 space-y-2 sm:ml-12">
                {step.commands.map((command) => (
                  <CopyCommand key={command} command={command} />
                ))}
              </div>
            </li>
          ))}
        </ol>
        <p className="text-sm text-muted-foreground">Run them in your project directory.</p>
      </section>
    </div>
  );
}

/** A value the buyer pastes elsewhere (the repository URL, the token), in full with its copy button beside it. */
function CopyableValue({ value, testId, copyLabel }: { value: string; testId: string; copyLabel: string }) {
  return (
    <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
      <code
        className="min-w-0 flex-1 break-all rounded-md border bg-muted/60 px-3 py-2 font-mono text-sm"
        data-testid={testId}
      >
        {value}
      </code>
      <CopyButton value={value} label={copyLabel} className="self-start sm:self-auto" />
    </div>
  );
}

import { CheckCircle2, HelpCircle, Loader2, ShieldCheck } from 'lucide-react';
import { type ComponentProps, useState } from 'react';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { usePublicConfig } from '../../lib/public-config';
import { Section } from './brand-preview';
import { type BrandSettings, useVerifyDomain } from './branding-hooks';
import { DnsHelpDialog } from './dns-help-dialog';

/** Brand Settings' Custom Domain: the domain field, its verification state and the DNS help (spec seller-app §4). */
export function BrandDomainSection({
  settings,
  domain,
  inputProps,
}: {
  settings: BrandSettings;
  /** The domain as typed, to tell whether it is the saved one. */
  domain: string;
  inputProps: ComponentProps<typeof Input>;
}) {
  const [isDnsHelpOpen, setIsDnsHelpOpen] = useState(false);
  const verify = useVerifyDomain();
  const { data: config } = usePublicConfig();
  const savedDomain = settings.brandDomain ?? '';
  const isDomainSaved = Boolean(savedDomain) && domain.trim().toLowerCase() === savedDomain;
  return (
    <Section title="Custom Domain">
      <div className="space-y-2">
        <div className="flex flex-wrap items-center gap-2">
          <Label htmlFor="brand-domain">Domain (optional)</Label>
          {isDomainSaved &&
            (settings.brandDomainVerifiedAt ? (
              <Badge className="gap-1 bg-green-600 text-white" data-testid="domain-status">
                <CheckCircle2 className="size-3" /> Verified
              </Badge>
            ) : (
              <Badge variant="outline" data-testid="domain-status">
                Not verified
              </Badge>
            ))}
        </div>
        <div className="flex flex-col gap-2 sm:flex-row">
          <Input
            id="brand-domain"
            className="font-mono"
            placeholder="composer.yourcompany.com"
            autoCapitalize="none"
            spellCheck={false}
            {...inputProps}
          />
          <div className="flex flex-wrap gap-2 sm:shrink-0 sm:flex-nowrap">
            <Button
              type="button"
              variant="outline"
              className="flex-1 sm:flex-none"
              onClick={() => verify.mutate()}
              disabled={!isDomainSaved || verify.isPending}
            >
              {verify.isPending ? <Loader2 className="animate-spin" /> : <ShieldCheck />}
              Verify domain
            </Button>
            <Button
              type="button"
              variant="ghost"
              className="flex-1 sm:flex-none"
              onClick={() => setIsDnsHelpOpen(true)}
            >
              <HelpCircle />
              DNS Setup Help
            </Button>
          </div>
        </div>
        <p className="text-xs text-muted-foreground">
          {domain.trim() && !isDomainSaved
            ? 'Save Branding to use this domain, then verify it.'
            : `A CNAME to ${settings.domainCnameTarget}. License e-mails give your repository as ${settings.repositoryUrl}.`}
        </p>
      </div>
      <DnsHelpDialog
        open={isDnsHelpOpen}
        onOpenChange={setIsDnsHelpOpen}
        brandDomain={domain}
        composerTarget={settings.domainCnameTarget}
        publicUrl={config?.publicUrl ?? window.location.origin}
      />
    </Section>
  );
}

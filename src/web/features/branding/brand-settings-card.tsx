import { AlertTriangle, ImageUp, Loader2, Palette, Save } from 'lucide-react';
import { type ChangeEvent, type FormEvent, type ReactNode, useRef, useState } from 'react';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '../../components/ui/card';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { toast } from '../../components/ui/use-toast';
import { errorMessage } from '../../lib/api-error';
import { cn } from '../../lib/cn';
import { usePermission } from '../../lib/permissions';
import { hasNothingLoaded } from '../../lib/query-state';
import { BrandDomainSection } from './brand-domain-section';
import {
  type BrandFormValues,
  brandColorInputs,
  colorPickerValue,
  formValuesFrom,
  isInvalidColor,
  saveInputFrom,
} from './brand-form';
import { BrandPreview, Section } from './brand-preview';
import { type BrandSettings, uploadLogo, useBrandSettings, useSaveBrandSettings } from './branding-hooks';
import { LOGO_INPUT_ACCEPT, logoFileProblem } from './logo-file';

/** Brand Settings (spec seller-app §2, §3, §4, §5): the package host's and the license e-mails' brand. */
export function BrandSettingsCard() {
  const settings = useBrandSettings();
  return (
    <Card data-testid="brand-settings">
      <CardHeader>
        <div className="flex items-center gap-3">
          <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary">
            <Palette className="size-5" aria-hidden="true" />
          </span>
          <div className="space-y-1">
            <CardTitle className="text-xl">Brand Settings</CardTitle>
            <CardDescription>
              Your name, logo and colours on your package host, and the sender of your license e-mails.
            </CardDescription>
          </div>
        </div>
      </CardHeader>
      {settings.isLoading ? (
        <CardContent className="flex items-center gap-2 text-sm text-muted-foreground">
          <Loader2 className="size-4 animate-spin" /> Loading brand settings...
        </CardContent>
      ) : hasNothingLoaded(settings) || !settings.data ? (
        <CardContent className="flex items-center gap-2 text-sm text-destructive" role="alert">
          <AlertTriangle className="size-4" /> {errorMessage(settings.error, 'Unable to load brand settings')}
        </CardContent>
      ) : (
        <BrandSettingsForm settings={settings.data} />
      )}
    </Card>
  );
}

function BrandSettingsForm({ settings }: { settings: BrandSettings }) {
  const [values, setValues] = useState<BrandFormValues>(() => formValuesFrom(settings));
  const [uploadedPreview, setUploadedPreview] = useState<string>();
  const [isUploading, setIsUploading] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const save = useSaveBrandSettings();
  const writeBranding = usePermission('branding:write');

  const set = <Field extends keyof BrandFormValues>(field: Field, value: BrandFormValues[Field]) =>
    setValues((current) => ({ ...current, [field]: value }));
  const text = (field: keyof BrandFormValues) => ({
    value: values[field] as string,
    onChange: (event: ChangeEvent<HTMLInputElement>) => set(field, event.target.value),
  });

  const logo = uploadedPreview ?? values.brandLogo.trim();
  const hasLogo = Boolean(values.brandLogo.trim());
  const invalidColors = brandColorInputs.filter(({ field }) => isInvalidColor(values[field]));

  const onLogoFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const problem = logoFileProblem(file);
    if (problem) {
      toast({ variant: 'destructive', title: problem.title, description: problem.description });
      return;
    }
    setIsUploading(true);
    try {
      const { logoUrl } = await uploadLogo(file);
      set('brandLogo', logoUrl);
      // A data URL, not an object URL: the page's CSP allows data: images and not blob: ones.
      setUploadedPreview(await readAsDataUrl(file));
      toast({ title: 'Logo uploaded', description: 'Click Save Branding to use it on your package host.' });
    } catch (error) {
      set('brandLogo', '');
      setUploadedPreview(undefined);
      toast({ variant: 'destructive', title: 'Upload failed', description: errorMessage(error, 'Please try again.') });
    } finally {
      setIsUploading(false);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!writeBranding.allowed) return;
    save.mutate(saveInputFrom(values), {
      onSuccess: (saved) => {
        setValues(formValuesFrom(saved));
      },
    });
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Brand Settings">
      {/* A role without branding:write sees the settings with every control disabled, and why (issue 33). */}
      <fieldset disabled={!writeBranding.allowed} title={writeBranding.reason} className="contents">
        {writeBranding.reason && (
          <p className="px-6 pb-4 text-sm text-muted-foreground" data-testid="branding-forbidden">
            {writeBranding.reason}
          </p>
        )}
        <CardContent className="space-y-8">
          <Section title="Identity">
            <div className="grid gap-6 lg:grid-cols-2">
              <div className="space-y-2">
                <Label htmlFor="brand-name">Company Name</Label>
                <Input
                  id="brand-name"
                  placeholder="Your Company"
                  maxLength={100}
                  autoComplete="organization"
                  {...text('brandName')}
                />
                <p className="text-xs text-muted-foreground">Shown on your package host and in license e-mails.</p>
              </div>
              <div className="space-y-2">
                <Label htmlFor="brand-logo">Logo</Label>
                <div className="flex gap-2">
                  <Input
                    id="brand-logo"
                    placeholder="https://yourcompany.com/logo.svg"
                    inputMode="url"
                    value={values.brandLogo}
                    onChange={(event) => {
                      set('brandLogo', event.target.value);
                      setUploadedPreview(undefined);
                    }}
                  />
                  <Button
                    type="button"
                    variant="outline"
                    onClick={() => fileInput.current?.click()}
                    disabled={isUploading}
                    aria-label="Upload logo"
                  >
                    {isUploading ? <Loader2 className="animate-spin" /> : <ImageUp />}
                    <span className="hidden sm:inline">{isUploading ? 'Uploading...' : 'Upload'}</span>
                  </Button>
                  <input
                    ref={fileInput}
                    type="file"
                    accept={LOGO_INPUT_ACCEPT}
                    className="sr-only"
                    tabIndex={-1}
                    aria-hidden="true"
                    data-testid="logo-file-input"
                    onChange={onLogoFile}
                  />
                </div>
                <p className="text-xs text-muted-foreground">
                  An image URL, or upload SVG, PNG, JPG, GIF or WebP up to 5 MB.
                </p>
                {hasLogo && (
                  <label className="flex items-center gap-2 pt-1 text-sm">
                    <input
                      type="checkbox"
                      className="size-4 accent-primary"
                      checked={values.brandHideText}
                      onChange={(event) => set('brandHideText', event.target.checked)}
                    />
                    Logo only: hide the brand name next to it
                  </label>
                )}
              </div>
            </div>
          </Section>

          <Section title="Colors">
            <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
              {brandColorInputs.map(({ field, label, placeholder, hint }) => (
                <div key={field} className="space-y-1.5">
                  <Label htmlFor={`brand-${field}`}>{label}</Label>
                  <div className="flex gap-2">
                    <input
                      type="color"
                      aria-label={`${label} picker`}
                      className="h-10 w-11 shrink-0 cursor-pointer rounded-md border border-input bg-background p-1"
                      value={colorPickerValue(values[field], placeholder)}
                      onChange={(event) => set(field, event.target.value.toUpperCase())}
                    />
                    <Input
                      id={`brand-${field}`}
                      className="font-mono"
                      placeholder={placeholder}
                      maxLength={7}
                      aria-invalid={isInvalidColor(values[field])}
                      {...text(field)}
                    />
                  </div>
                  <p
                    className={cn(
                      'text-xs',
                      isInvalidColor(values[field]) ? 'text-destructive' : 'text-muted-foreground',
                    )}
                  >
                    {isInvalidColor(values[field]) ? 'Use #RGB or #RRGGBB' : hint}
                  </p>
                </div>
              ))}
            </div>
            <BrandPreview values={values} logo={logo} />
          </Section>

          <BrandDomainSection settings={settings} domain={values.brandDomain} inputProps={text('brandDomain')} />

          <Section title="Support and E-mail">
            <div className="grid gap-4 sm:grid-cols-2">
              <Field
                id="brand-support-email"
                label="Support Email"
                hint="Shown to license holders on your package host."
              >
                <Input
                  id="brand-support-email"
                  type="email"
                  placeholder="support@yourcompany.com"
                  {...text('supportEmail')}
                />
              </Field>
              <Field id="brand-email-from-name" label="E-mail Sender Name" hint="The From name of license e-mails.">
                <Input id="brand-email-from-name" placeholder="Your Company" {...text('emailFromName')} />
              </Field>
              <Field
                id="brand-email-from-address"
                label="E-mail Sender Address"
                hint="Where replies go when no Reply-To is set; mail is sent from the platform's address."
              >
                <Input
                  id="brand-email-from-address"
                  type="email"
                  placeholder="licenses@yourcompany.com"
                  {...text('emailFromAddress')}
                />
              </Field>
              <Field id="brand-email-reply-to" label="Reply-To Address" hint="Where license holders' replies go.">
                <Input
                  id="brand-email-reply-to"
                  type="email"
                  placeholder="support@yourcompany.com"
                  {...text('emailReplyTo')}
                />
              </Field>
            </div>
          </Section>
        </CardContent>
        <CardFooter className="flex-col items-stretch gap-2 border-t pt-6 sm:flex-row sm:items-center sm:justify-between">
          <p className="text-xs text-muted-foreground">
            {invalidColors.length > 0
              ? `Fix ${invalidColors.map((color) => color.label).join(', ')} before saving.`
              : 'Empty colours and name fall back to their defaults.'}
          </p>
          <Button type="submit" disabled={save.isPending || isUploading || invalidColors.length > 0}>
            {save.isPending ? <Loader2 className="animate-spin" /> : <Save />}
            Save Branding
          </Button>
        </CardFooter>
      </fieldset>
    </form>
  );
}

function readAsDataUrl(file: File): Promise<string | undefined> {
  return new Promise((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result : undefined);
    reader.onerror = () => resolve(undefined);
    reader.readAsDataURL(file);
  });
}

function Field({ id, label, hint, children }: { id: string; label: string; hint: string; children: ReactNode }) {
  return (
    <div className="space-y-2">
      <Label htmlFor={id}>{label}</Label>
      {children}
      <p className="text-xs text-muted-foreground">{hint}</p>
    </div>
  );
}

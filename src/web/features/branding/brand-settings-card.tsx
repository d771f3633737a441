import { AlertTriangle, ImageUp, Loader2, Palette, Save } from 'lucide-react';
import { type ChangeEvent, useRef, useState } from 'react';
import { failureToast } from '../../components/failure-toast';
import { FormField } from '../../components/form-field';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '../../components/ui/card';
import { LabelledCheckbox } from '../../components/ui/checkbox';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { toast } from '../../components/ui/use-toast';
import { errorMessage } from '../../lib/api-error';
import { cn } from '../../lib/cn';
import { usePermission } from '../../lib/permissions';
import { hasNothingLoaded } from '../../lib/query-state';
import { useSchemaForm } from '../../lib/schema-form';
import { BrandDomainSection } from './brand-domain-section';
import { brandColorInputs, brandFormSchema, colorPickerValue, formValuesFrom, isInvalidColor } from './brand-form';
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

/** The Support and E-mail fields, in the order the form shows them. */
const contactInputs: {
  field: 'supportEmail' | 'emailFromName' | 'emailFromAddress' | 'emailReplyTo';
  id: string;
  label: string;
  hint: string;
  placeholder: string;
  type: 'email' | 'text';
}[] = [
  {
    field: 'supportEmail',
    id: 'brand-support-email',
    label: 'Support Email',
    hint: 'Shown to license holders on your package host.',
    placeholder: 'support@yourcompany.com',
    type: 'email',
  },
  {
    field: 'emailFromName',
    id: 'brand-email-from-name',
    label: 'E-mail Sender Name',
    hint: 'The From name of license e-mails.',
    placeholder: 'Your Company',
    type: 'text',
  },
  {
    field: 'emailFromAddress',
    id: 'brand-email-from-address',
    label: 'E-mail Sender Address',
    hint: "Where replies go when no Reply-To is set; mail is sent from the platform's address.",
    placeholder: 'licenses@yourcompany.com',
    type: 'email',
  },
  {
    field: 'emailReplyTo',
    id: 'brand-email-reply-to',
    label: 'Reply-To Address',
    hint: "Where license holders' replies go.",
    placeholder: 'support@yourcompany.com',
    type: 'email',
  },
];

function BrandSettingsForm({ settings }: { settings: BrandSettings }) {
  // react-hook-form (issue 29 item 7): the values are turned into the contract's input and checked with its schema.
  const form = useSchemaForm(brandFormSchema, formValuesFrom(settings));
  // The preview, the colour checks and the domain's state follow every keystroke.
  const values = form.watch();
  const [uploadedPreview, setUploadedPreview] = useState<string>();
  const [isUploading, setIsUploading] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const save = useSaveBrandSettings();
  const writeBranding = usePermission('branding:write');

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
      form.setValue('brandLogo', logoUrl);
      // A data URL, not an object URL: the page's CSP allows data: images and not blob: ones.
      setUploadedPreview(await readAsDataUrl(file));
      toast({ title: 'Logo uploaded', description: 'Click Save Branding to use it on your package host.' });
    } catch (error) {
      form.setValue('brandLogo', '');
      setUploadedPreview(undefined);
      failureToast('Upload failed', error, 'Please try again.');
    } finally {
      setIsUploading(false);
    }
  };

  const submit = form.handleSubmit((input) => {
    if (!writeBranding.allowed) return;
    save.mutate(input, { onSuccess: (saved) => form.reset(formValuesFrom(saved)) });
  });

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
                  {...form.register('brandName')}
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
                    {...form.register('brandLogo', { onChange: () => setUploadedPreview(undefined) })}
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
                  <LabelledCheckbox
                    labelClassName="pt-1"
                    label="Logo only: hide the brand name next to it"
                    {...form.register('brandHideText')}
                  />
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
                      onChange={(event) => form.setValue(field, event.target.value.toUpperCase())}
                    />
                    <Input
                      id={`brand-${field}`}
                      className="font-mono"
                      placeholder={placeholder}
                      maxLength={7}
                      aria-invalid={isInvalidColor(values[field])}
                      {...form.register(field)}
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

          <BrandDomainSection
            settings={settings}
            domain={values.brandDomain}
            inputProps={form.register('brandDomain')}
          />

          <Section title="Support and E-mail">
            <div className="grid gap-4 sm:grid-cols-2">
              {contactInputs.map(({ field, id, label, hint, placeholder, type }) => (
                <FormField key={field} id={id} label={label} hint={hint}>
                  {(control) => <Input {...control} type={type} placeholder={placeholder} {...form.register(field)} />}
                </FormField>
              ))}
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

import { credentialSnippets } from '../../../contract/credential-snippets.js';
import type { GrantEndMode, GrantKind } from '../../../contract/licenses.js';
import {
  composerAuthHost,
  isPlainHttp as isPlainHttpUrl,
  setupCommands,
  TOKEN_PLACEHOLDER,
} from '../../../contract/setup-commands.js';

// The e-mails a license holder receives. Pure: the service decides which one and passes every value in.

export type LicenseTerms = {
  kind: GrantKind;
  /** The length the seller chose, for temporary licenses. */
  durationDays?: number;
  expiresAt: Date | null;
  endMode: GrantEndMode;
};

export type LicenseEmailInput = {
  /** new-holder and token-regenerated carry a token; the others cannot (tokens are stored hashed). */
  reason: 'new-holder' | 'package-added' | 'license-renewed' | 'token-regenerated';
  /** The seller as the holder knows them; absent, the texts name nobody. */
  sellerName?: string;
  repositoryUrl: string;
  /** The seller's slug: names the repository entry in the setup commands. */
  sellerSlug: string;
  token?: string;
  /**
   * The packages the license is for (several: licenses given in one call, or a product's packages); for
   * token-regenerated, every package the holder may install.
   */
  packageNames: string[];
  /** What each license covers, in words ("acme/lib versions ^1.0, stable releases only"), one line each. */
  coverage?: string[];
  license?: LicenseTerms;
  /** The seller's brand (branding settings): the HTML's accent and header, and the support address in the footer. */
  brand?: EmailBrandStyle;
  /** A license from the seller's own test purchase (billing off): marked in the subject and the first lines. */
  isTestPurchase?: boolean;
};

/** What a test purchase's e-mail says first, so that nobody takes it for a receipt. */
export const TEST_PURCHASE_EMAIL_NOTE = 'This is a test purchase made by the seller: no payment was taken.';

export type EmailBrandStyle = {
  /** `#RGB` or `#RRGGBB`; anything else is ignored, since it is written into a style attribute. */
  accentColor?: string;
  /** An absolute https or http URL of the logo. */
  logoUrl?: string;
  /** With a logo: show the logo alone, without the name beside it (the seller's hide-text flag). */
  isTextHidden?: boolean;
  supportEmail?: string;
};

export type LicenseEmail = { subject: string; text: string; html: string };

/** Shown in place of a token the e-mail cannot contain. */
export { TOKEN_PLACEHOLDER };

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' });

/** Dates in en-US (spec §9) and in UTC, said so, since the holder may be anywhere. */
export function formatLicenseDate(date: Date): string {
  return `${dateFormat.format(date)} UTC`;
}

export function describeLicense(terms: LicenseTerms): string {
  if (terms.kind !== 'temporary') return 'a license';
  return terms.durationDays ? `a ${terms.durationDays}-day temporary license` : 'a temporary license';
}

export function describeLicenseEnd(terms: LicenseTerms): string {
  if (!terms.expiresAt) return 'It does not expire.';
  const date = formatLicenseDate(terms.expiresAt);
  if (terms.endMode === 'updates') {
    return `Updates end on ${date}: versions released before then stay installable afterwards.`;
  }
  return `It ends on ${date}; after that the package can no longer be installed or updated.`;
}

type Block = { kind: 'paragraph'; text: string } | { kind: 'commands'; lines: string[] };

const paragraph = (text: string): Block => ({ kind: 'paragraph', text });
const commands = (lines: string[]): Block => ({ kind: 'commands', lines });

export function buildLicenseEmail(input: LicenseEmailInput): LicenseEmail {
  const seller = input.sellerName?.trim() || undefined;
  const [firstPackage] = input.packageNames;
  // Several packages are named together and required in one command (composer require a b c).
  const packageList = input.packageNames.join(', ');
  const requireList = input.packageNames.join(' ');
  const coverageLines =
    input.coverage && input.coverage.length > 0
      ? [
          `What your license${input.coverage.length > 1 ? 's cover' : ' covers'}:\n${input.coverage.map((line) => `- ${line}`).join('\n')}`,
        ]
      : [];
  const isPlainHttp = isPlainHttpUrl(input.repositoryUrl);
  const plainHttpNote = paragraph(
    'This repository is served over plain http, which Composer refuses unless secure-http is turned off.',
  );
  const authJsonNote = paragraph(
    'Composer keeps the token in auth.json beside composer.json: leave that file out of version control.',
  );
  const lostToken = paragraph(
    `Lost your token? Ask ${seller ?? 'the seller'} to issue a new one: it arrives by e-mail, and the old one stops working at once.`,
  );
  // Every other place a token goes (CI, deployments, update bots), each with a placeholder for a token of its own
  // kind: the e-mail shows only the token it delivers, in the setup commands above (issue 32 item 5).
  const elsewhereBlocks = (): Block[] => [
    paragraph(
      'For CI, deployments and update bots, create a token of that kind in your license portal on the repository host, so that each can be revoked alone, and use it like this:',
    ),
    ...credentialSnippets(input.repositoryUrl)
      .filter((snippet) => snippet.id !== 'auth-json')
      .flatMap((snippet) => [paragraph(`${snippet.title}:`), commands(snippet.text.trimEnd().split('\n'))]),
  ];
  const setupFor = (packageName: string, token: string) =>
    commands(setupCommands({ repositoryUrl: input.repositoryUrl, sellerSlug: input.sellerSlug, packageName, token }));
  const terms = input.license;
  const licenseLines = terms ? [describeLicenseEnd(terms)] : [];

  let subject: string;
  const blocks: Block[] = [paragraph('Hello,')];

  switch (input.reason) {
    case 'new-holder': {
      const token = requireToken(input);
      requirePackage(firstPackage);
      const packageName = packageList;
      subject = seller ? `Your access to ${packageName} from ${seller}` : `Your access to ${packageName}`;
      blocks.push(
        paragraph(
          `${seller ?? 'You have been'} ${seller ? 'has given you' : 'given'} ${terms ? describeLicense(terms) : 'a license'} for ${packageName}.`,
        ),
        ...licenseLines.map(paragraph),
        ...coverageLines.map(paragraph),
        paragraph(`Repository URL: ${input.repositoryUrl}\nYour token: ${token}`),
        paragraph(
          'Keep the token secret: it is your key to the repository, and this e-mail is the only place it is shown.',
        ),
        paragraph("Run these commands in your project's folder (the one with composer.json):"),
        setupFor(requireList, token),
        ...(isPlainHttp ? [plainHttpNote] : []),
        authJsonNote,
        lostToken,
        ...elsewhereBlocks(),
      );
      break;
    }
    case 'package-added':
    case 'license-renewed': {
      requirePackage(firstPackage);
      const packageName = packageList;
      const isRenewal = input.reason === 'license-renewed';
      subject = isRenewal
        ? `Your license for ${packageName} was renewed`
        : `${packageName} was added to your access${seller ? ` from ${seller}` : ''}`;
      const what = terms ? describeLicense(terms) : 'a license';
      blocks.push(
        paragraph(
          isRenewal
            ? `${seller ?? 'The seller'} has renewed your license for ${packageName}: ${what}.`
            : `${seller ?? 'The seller'} has added ${packageName} to your access: ${what}.`,
        ),
        ...licenseLines.map(paragraph),
        ...coverageLines.map(paragraph),
        paragraph(
          'It works with the token you already have for this repository, so your Composer configuration stays as it is.',
        ),
        paragraph(`Repository URL: ${input.repositoryUrl}`),
        paragraph('In a project already set up for this repository, run:'),
        commands([`composer require ${requireList}`]),
        paragraph(`In a new project, run these, with your token in place of ${TOKEN_PLACEHOLDER}:`),
        setupFor(requireList, TOKEN_PLACEHOLDER),
        ...(isPlainHttp ? [plainHttpNote] : []),
        lostToken,
      );
      break;
    }
    case 'token-regenerated': {
      const token = requireToken(input);
      subject = seller ? `Your new Composer token for ${seller}` : 'Your new Composer token';
      blocks.push(
        paragraph(
          `${seller ?? 'The seller'} has issued you a new token for ${seller ? 'their' : 'this'} Composer repository. Your previous token no longer works.`,
        ),
        paragraph(`Repository URL: ${input.repositoryUrl}\nYour new token: ${token}`),
        paragraph('Keep the token secret: this e-mail is the only place it is shown.'),
        paragraph('In each project that uses this repository, replace the old token:'),
        commands([`composer config bearer.${composerAuthHost(input.repositoryUrl)} ${token}`]),
      );
      if (firstPackage) {
        blocks.push(
          paragraph(`Packages you may install: ${input.packageNames.join(', ')}.`),
          paragraph('In a new project, run:'),
          setupFor(firstPackage, token),
          ...(isPlainHttp ? [plainHttpNote] : []),
        );
      } else {
        blocks.push(paragraph('You have no active license at the moment.'));
      }
      blocks.push(authJsonNote);
      break;
    }
  }

  const supportEmail = input.brand?.supportEmail?.trim();
  if (supportEmail) blocks.push(paragraph(`Questions about your license? Write to ${supportEmail}.`));
  if (input.isTestPurchase) {
    subject = `[Test] ${subject}`;
    blocks.splice(1, 0, paragraph(TEST_PURCHASE_EMAIL_NOTE));
  }

  return { subject, text: renderText(blocks), html: renderHtml(subject, blocks, seller, input.brand) };
}

/** A notice to license holders in the seller's brand (e.g. a security advisory): paragraphs and commands. */
export type HolderNoticeInput = {
  subject: string;
  parts: ({ paragraph: string } | { commands: string[] })[];
  sellerName?: string;
  brand?: EmailBrandStyle;
};

export function buildHolderNotice(input: HolderNoticeInput): LicenseEmail {
  const seller = input.sellerName?.trim() || undefined;
  const blocks: Block[] = [
    paragraph('Hello,'),
    ...input.parts.map((part) => ('paragraph' in part ? paragraph(part.paragraph) : commands(part.commands))),
  ];
  const supportEmail = input.brand?.supportEmail?.trim();
  if (supportEmail) blocks.push(paragraph(`Questions? Write to ${supportEmail}.`));
  return {
    subject: input.subject,
    text: renderText(blocks),
    html: renderHtml(input.subject, blocks, seller, input.brand),
  };
}

function requireToken(input: LicenseEmailInput): string {
  if (!input.token) throw new Error(`A ${input.reason} e-mail needs the token`);
  return input.token;
}

function requirePackage(packageName: string | undefined): string {
  if (!packageName) throw new Error('A license e-mail needs the package name');
  return packageName;
}

function renderText(blocks: Block[]): string {
  const parts = blocks.map((block) =>
    block.kind === 'paragraph' ? block.text : block.lines.map((line) => `    ${line}`).join('\n'),
  );
  return `${parts.join('\n\n')}\n`;
}

function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

const DEFAULT_ACCENT = '#8B5CF6';
const HEX_COLOR = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

/** The brand's header: logo and/or name in the accent colour; nothing when the seller is unnamed and has no logo. */
function renderHeader(sellerName: string | undefined, brand: EmailBrandStyle | undefined, accent: string): string {
  const logoUrl = brand?.logoUrl && /^https?:\/\//i.test(brand.logoUrl) ? brand.logoUrl : undefined;
  const logo = logoUrl
    ? `<img src="${escapeHtml(logoUrl)}" alt="${escapeHtml(sellerName ?? '')}" height="40" style="height:40px;max-width:200px;vertical-align:middle;border:0">`
    : '';
  const showName = sellerName && !(logo && brand?.isTextHidden);
  const name = showName
    ? `<span style="font-size:20px;font-weight:600;color:${accent};vertical-align:middle${logo ? ';margin-left:12px' : ''}">${escapeHtml(sellerName)}</span>`
    : '';
  if (!logo && !name) return '';
  return `<div style="padding:0 0 16px;margin-bottom:16px;border-bottom:3px solid ${accent}">${logo}${name}</div>\n`;
}

function renderHtml(
  subject: string,
  blocks: Block[],
  sellerName: string | undefined,
  brand: EmailBrandStyle | undefined,
): string {
  const accent = brand?.accentColor && HEX_COLOR.test(brand.accentColor) ? brand.accentColor : DEFAULT_ACCENT;
  const body = blocks
    .map((block) =>
      block.kind === 'paragraph'
        ? `<p>${escapeHtml(block.text).replaceAll('\n', '<br>')}</p>`
        : `<pre style="background:#f4f4f5;padding:12px;border-radius:6px;border-left:4px solid ${accent};overflow-x:auto"><code>${block.lines
            .map(escapeHtml)
            .join('\n')}</code></pre>`,
    )
    .join('\n');
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family:-apple-system,Segoe UI,Helvetica,Arial,sans-serif;line-height:1.5;color:#1f2937;max-width:640px">
${renderHeader(sellerName, brand, accent)}${body}
</body></html>
`;
}

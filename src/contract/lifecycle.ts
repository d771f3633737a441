import { z } from 'zod';
import { packageIdParams, packageNameSchema } from './packages.js';

// A package's lifecycle (issue 13): security advisories, abandonment and yanked versions, which the Composer
// repository serves to license holders (`composer audit`, Composer's abandoned warning, versions left out of the
// metadata). The affected versions are checked against Composer's constraint rules on the server.

export const ADVISORY_SEVERITIES = ['low', 'medium', 'high', 'critical'] as const;
export const advisorySeveritySchema = z.enum(ADVISORY_SEVERITIES);
export type AdvisorySeverity = z.infer<typeof advisorySeveritySchema>;

export const ADVISORY_TITLE_MAX_LENGTH = 200;
export const AFFECTED_VERSIONS_MAX_LENGTH = 256;
export const ADVISORY_LINK_MAX_LENGTH = 500;
export const YANK_REASON_MAX_LENGTH = 300;

/** Texts reach the holder's terminal: no control characters (an escape sequence would restyle or hide output). */
function hasControlCharacter(value: string): boolean {
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index);
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return true;
  }
  return false;
}
const terminalText = (label: string, max: number) =>
  z
    .string()
    .trim()
    .min(1, `${label} is required`)
    .max(max, { message: `${label} has at most ${max} characters`, abort: true })
    .refine((value) => !hasControlCharacter(value), `${label} must be a single line of plain text`);

const CVE_PATTERN = /^CVE-\d{4}-\d{4,19}$/;
const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** POST /api/repositories/{id}/advisories */
export const createAdvisoryInput = z.object({
  title: terminalText('Title', ADVISORY_TITLE_MAX_LENGTH),
  /** A Composer constraint: `>=1.0,<1.4.2`, `<2.3.1|>=3.0,<3.0.4`, `^1.2`. */
  affectedVersions: terminalText('Affected versions', AFFECTED_VERSIONS_MAX_LENGTH),
  severity: advisorySeveritySchema,
  cve: z
    .string()
    .trim()
    .max(30, { abort: true })
    .regex(CVE_PATTERN, 'CVE must look like CVE-2026-12345')
    .nullish()
    .or(z.literal('').transform(() => null)),
  link: z
    .url({ protocol: /^https?$/, message: 'Link must be an http or https URL' })
    .max(ADVISORY_LINK_MAX_LENGTH)
    .nullish()
    .or(z.literal('').transform(() => null)),
  /** The day the issue was reported (YYYY-MM-DD); today when left out. */
  reportedAt: z
    .string()
    .regex(DATE_PATTERN, 'Date must be a day like 2026-11-24')
    .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)), 'Date must be a real day')
    .optional(),
});
export type CreateAdvisoryInput = z.input<typeof createAdvisoryInput>;

export const advisorySchema = z.object({
  id: z.string(),
  /** What Composer shows as the advisory's id (`PKGT-...`). */
  advisoryId: z.string(),
  title: z.string(),
  affectedVersions: z.string(),
  severity: advisorySeveritySchema,
  cve: z.string().nullable(),
  link: z.string().nullable(),
  reportedAt: z.string(),
  withdrawnAt: z.string().nullable(),
  createdAt: z.string(),
  /** License holders e-mailed because their installed version is affected. */
  notifiedHolders: z.number().int(),
});
export type Advisory = z.infer<typeof advisorySchema>;

/** PUT /api/repositories/{id}/abandonment */
export const abandonPackageInput = z.object({
  /** The package holders should use instead; none when left out. */
  replacement: packageNameSchema.nullish().or(z.literal('').transform(() => null)),
});
export type AbandonPackageInput = z.input<typeof abandonPackageInput>;

/** PUT /api/repositories/{id}/versions/{version}/yank */
export const yankVersionInput = z.object({ reason: terminalText('Reason', YANK_REASON_MAX_LENGTH) });
export type YankVersionInput = z.input<typeof yankVersionInput>;

/** advisoryId is Composer's advisory id (`PKGT-` and 16 hex digits), not a row id. */
export const advisoryParams = packageIdParams.extend({ advisoryId: z.string().max(100) });
export const versionParams = packageIdParams.extend({ version: z.string().min(1).max(200) });

export const lifecycleVersionSchema = z.object({
  version: z.string(),
  kind: z.enum(['tag', 'branch']),
  releasedAt: z.string(),
  yank: z.object({ reason: z.string(), yankedAt: z.string() }).nullable(),
});

/** GET /api/repositories/{id}/lifecycle, and the answer of every lifecycle change. */
export const packageLifecycleSchema = z.object({
  packageId: z.string(),
  packageName: z.string(),
  abandoned: z.object({ replacement: z.string().nullable(), abandonedAt: z.string() }).nullable(),
  advisories: z.array(advisorySchema),
  /** Tags, newest release first: the versions a seller can yank. */
  versions: z.array(lifecycleVersionSchema),
});
export type PackageLifecycle = z.infer<typeof packageLifecycleSchema>;

import { OIDC_EXCHANGE_PATH } from './oidc-trusts.js';
import { composerAuthHost } from './setup-commands.js';

// The copy-paste steps the portal shows for a trusted CI identity (issue 32 item 3): the job asks its CI for an
// OIDC token with the trust's audience, trades it at the seller's repository host, and hands the answer to
// Composer. No secret is stored in the CI's settings. JSON is read with PHP, which every job running Composer has.

export type CiStepsInput = {
  /** The seller's repository URL, from configuration (`https://acme.packgate.example`). */
  repositoryUrl: string;
  audience: string;
};

/** Prints `.token` of the exchange's JSON answer on stdin; a refusal's message goes to the job's log instead. */
const READ_TOKEN =
  `php -r '$a = json_decode(stream_get_contents(STDIN)); if (!isset($a->token)) { ` +
  `fwrite(STDERR, ($a->message ?? "No answer from the repository") . PHP_EOL); exit(1); } echo $a->token;'`;

function exchangeCommand(repositoryUrl: string, jobTokenVariable: string): string {
  const exchangeUrl = new URL(OIDC_EXCHANGE_PATH, repositoryUrl).toString();
  return (
    `COMPOSER_TOKEN=$(curl -sS --fail-with-body -X POST -H 'Content-Type: application/json' ` +
    `-d "{\\"token\\":\\"$${jobTokenVariable}\\"}" ${exchangeUrl} | ${READ_TOKEN})`
  );
}

/** The lines of a shell step that trade the job token in `$JOB_TOKEN` and configure Composer with the answer. */
export function exchangeScript(input: CiStepsInput, jobTokenVariable: string): string[] {
  return [
    exchangeCommand(input.repositoryUrl, jobTokenVariable),
    `composer config --global bearer.${composerAuthHost(input.repositoryUrl)} "$COMPOSER_TOKEN"`,
  ];
}

/** The shell lines of the GitHub Actions step: ask GitHub for the job token with the audience, then trade it. */
export function githubActionsScript(input: CiStepsInput): string[] {
  const audience = encodeURIComponent(input.audience);
  return [
    `JOB_TOKEN=$(curl -sS --fail-with-body -H "Authorization: bearer $ACTIONS_ID_TOKEN_REQUEST_TOKEN" "$ACTIONS_ID_TOKEN_REQUEST_URL&audience=${audience}" | php -r 'echo json_decode(stream_get_contents(STDIN))->value;')`,
    ...exchangeScript(input, 'JOB_TOKEN'),
  ];
}

/** A GitHub Actions workflow's permissions and the step before `composer install`. */
export function githubActionsSteps(input: CiStepsInput): string {
  const script = githubActionsScript(input);
  return [
    'permissions:',
    '  id-token: write',
    '  contents: read',
    '',
    'steps:',
    '  - uses: actions/checkout@v4',
    `  - name: Get a Composer token for ${composerAuthHost(input.repositoryUrl)}`,
    '    shell: bash',
    '    run: |',
    ...script.map((line) => `      ${line}`),
    '      echo "::add-mask::$COMPOSER_TOKEN"',
    '  - run: composer install',
  ].join('\n');
}

/** A GitLab CI job with an ID token of the trust's audience. */
export function gitlabCiSteps(input: CiStepsInput): string {
  return [
    'composer-install:',
    '  id_tokens:',
    '    PACKGATE_ID_TOKEN:',
    `      aud: ${JSON.stringify(input.audience)}`,
    '  script:',
    ...exchangeScript(input, 'PACKGATE_ID_TOKEN').map((line) => `    - ${JSON.stringify(line)}`),
    '    - composer install',
  ].join('\n');
}

/** The subject GitHub Actions gives a job on a branch, and GitLab CI's, as examples for the form. */
export const SUBJECT_EXAMPLES = {
  githubActions: 'repo:acme/shop:ref:refs/heads/main',
  gitlab: 'project_path:acme/shop:ref_type:branch:ref:main',
} as const;

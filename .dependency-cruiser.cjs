// The layering of DESIGN.md ("Layout") as rules that `npm run lint` enforces.
// Tests are exempt from the feature and layer rules: an integration test may reach any module it
// exercises, but a test must still not create a cycle.
const TESTS = '\\.test\\.tsx?$';
// The kinds of feature folders (issue 29): shared infrastructure in features/shared/<name>/, and the domains and
// channels layers.json lists. scripts/check-folder-graph.ts (also run by `npm run lint`) keeps the folders a DAG.
const layers = require('./src/server/features/layers.json');
const CHANNELS = `^src/server/features/(${layers.channels.join('|')})/`;
const DOMAINS = `^src/server/features/(${layers.domains.join('|')})/`;
// Feature files that still query the database themselves (issue 29 item 6): a list that only shrinks.
const QUERIES_NOT_YET_MOVED = require('./src/server/features/queries-outside-repositories.json').files.map(
  (file) => `^${file.replaceAll('.', '\\.')}$`,
);

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      comment: 'Import cycles hide which module owns a rule and break start-up order; move the shared piece down.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'config-imports-no-adapter',
      comment:
        'config.ts and config/ only read settings; adapters are chosen from the settings by the composition root.',
      severity: 'error',
      from: { path: '^src/server/config(\\.ts$|/)' },
      to: { path: '^src/server/adapters/' },
    },
    {
      name: 'adapters-stay-at-the-edge',
      comment: 'An adapter wraps one outside system; it must not know the HTTP layer, the features or the context.',
      severity: 'error',
      from: { path: '^src/server/adapters/', pathNot: TESTS },
      to: { path: ['^src/server/http/', '^src/server/features/', '^src/server/context\\.ts$'] },
    },
    {
      name: 'features-use-each-others-services-only',
      comment:
        "A server feature reaches another domain only through its *.service.ts files (DESIGN.md: a service reaches another domain only through that domain's service).",
      severity: 'error',
      from: { path: '^src/server/features/([^/]+)/', pathNot: TESTS },
      to: {
        path: '^src/server/features/',
        // Pure rule modules (`*-rules.ts`: no I/O, no state) may be shared too, so that two domains never copy a rule.
        pathNot: [
          '^src/server/features/$1/',
          '^src/server/features/(shared/)?[^/]+/[^/]+\\.service\\.ts$',
          '^src/server/features/[^/]+/[^/]+-rules\\.ts$',
        ],
      },
    },
    {
      name: 'shared-knows-no-feature',
      comment:
        'Shared infrastructure (features/shared/: audit, settings, inbound webhooks) sits below every domain and channel; it may use another shared piece, never them.',
      severity: 'error',
      from: { path: '^src/server/features/shared/', pathNot: TESTS },
      to: { path: '^src/server/features/', pathNot: '^src/server/features/shared/' },
    },
    {
      name: 'domains-use-no-channel',
      comment:
        'A domain holds its use cases for every door; what two doors share moves into the domain or features/shared/, never into a channel (API v1, portal, admin, developer pages).',
      severity: 'error',
      from: { path: DOMAINS, pathNot: TESTS },
      to: { path: CHANNELS },
    },
    {
      name: 'channels-stay-apart',
      comment: 'A channel parses, calls a domain and presents; channels never import each other.',
      severity: 'error',
      from: { path: CHANNELS, pathNot: TESTS },
      to: { path: CHANNELS, pathNot: '^src/server/features/$1/' },
    },
    {
      name: 'server-lib-stays-below',
      comment:
        'src/server/lib/ holds pure helpers below everything else of the server: it knows no feature, HTTP, job or database.',
      severity: 'error',
      from: { path: '^src/server/lib/', pathNot: TESTS },
      to: { path: '^src/server/(features|http|jobs|db|adapters)/|^src/server/(app|context|main)\\.ts$' },
    },
    {
      name: 'queries-live-in-repositories',
      comment:
        "A feature's queries live in its *.repository.ts; services keep the rules and the transaction boundaries. Files not yet moved are listed in src/server/features/queries-outside-repositories.json.",
      severity: 'error',
      from: { path: '^src/server/features/', pathNot: [TESTS, '\\.repository\\.ts$', ...QUERIES_NOT_YET_MOVED] },
      to: { path: '^node_modules/drizzle-orm/' },
    },
    {
      name: 'web-lib-imports-no-components',
      comment: 'web lib/ is below components/: components may use lib, never the reverse.',
      severity: 'error',
      from: { path: '^src/web/lib/', pathNot: TESTS },
      to: { path: '^src/web/components/' },
    },
    {
      name: 'web-features-stay-apart',
      comment: 'Web features never import each other; shared pieces move to components/ or lib/.',
      severity: 'error',
      from: { path: '^src/web/features/([^/]+)/', pathNot: TESTS },
      to: { path: '^src/web/features/', pathNot: '^src/web/features/$1/' },
    },
    {
      name: 'contract-stands-alone',
      comment: 'The contract is shared by server and browser, so it depends on neither.',
      severity: 'error',
      from: { path: '^src/contract/' },
      to: { path: ['^src/server/', '^src/web/'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['^src/server/db/migrations/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};

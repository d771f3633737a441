// `npm run lint` (lint:dependencies): fails when src/server's folders form a loop, when a module imports a layer
// above its own, or when a feature folder has no kind in src/server/features/layers.json (issue 29). The rules per
// module stay in .dependency-cruiser.cjs; dependency-cruiser's no-cycle sees modules, this sees folders.
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import layers from '../src/server/features/layers.json' with { type: 'json' };
import { checkFolderGraph, describeFolderGraph } from './folder-graph.js';

const options = await extractDepcruiseOptions('./.dependency-cruiser.cjs');
// Only the graph is wanted here: the rules are the dependency-cruiser run's to report.
const result = await cruise(
  ['src/server'],
  { ...options, ruleSet: {}, validate: false },
  {},
  {
    tsConfig: extractTSConfig('tsconfig.json'),
  },
);
const report = checkFolderGraph((result.output as ICruiseResult).modules, layers);
const problems = describeFolderGraph(report);
if (problems.length > 0) {
  console.error(problems.join('\n'));
  console.error(
    `\n${report.loops.length} folder loop(s), ${report.upward.length} upward import(s), ${report.unlisted.length} unlisted folder(s).`,
  );
  process.exit(1);
}
console.log('Folder graph: no loops, no upward imports.');

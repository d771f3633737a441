// What a license covers, in words, as other folders may use it (they reach this domain through *.service.ts files):
// the portal shows it beside each license.
export { describeGrantCoverage } from './license-coverage-words.js';

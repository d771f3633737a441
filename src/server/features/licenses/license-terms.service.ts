// A license's version constraint, checked with Composer's parser, as other folders may use it (a price for a version
// range in sales carries one).
export { checkedConstraint } from './version-terms.js';

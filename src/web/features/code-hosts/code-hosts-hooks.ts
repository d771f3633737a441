// The connections' queries live in lib/ (Add Package reads them too); the Code hosts page's forms import them here.
export * from '../../lib/code-hosts';

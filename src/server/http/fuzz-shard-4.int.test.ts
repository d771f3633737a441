import { fuzzShard } from '../../../test/support/fuzz-shard.js';

// One of the fuzz suite's shards: the routes and the inputs are chosen in test/support/fuzz-shard.ts.
fuzzShard(4, import.meta.filename);

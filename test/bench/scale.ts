/**
 * How much a benchmark run measures. 'default' is `npm run bench`; 'full' (`--full`) adds the sizes and
 * seeds that take long (each part's README entry says how long); 'smoke' (`--smoke`, and the test suite's
 * test/unit/bench/benchSmoke.test.ts) runs each part at its smallest size and one seed: not a figure to
 * compare, only proof that the part still runs to its table.
 */
export type Scale = 'smoke' | 'default' | 'full';

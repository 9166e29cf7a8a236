/**
 * Test order for a two-core machine with no results cache (a fresh CI clone): the files named here start
 * first, in this order, so a long file overlaps the many short ones instead of running alone at the end.
 * Most of their time is real-clock waiting (a DNS watch confirming, a child process, the app's own
 * schedule), which the other worker fills. Everything else keeps Vitest's order (its cache, where one
 * exists, sorts by the last run's durations).
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** A sequencer class that starts the files whose paths end with `slowest` first. */
export function slowFirstSequencer(slowest: readonly string[]): typeof BaseSequencer {
  return class SlowFirstSequencer extends BaseSequencer {
    override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
      const rank = (spec: TestSpecification) => {
        const i = slowest.findIndex((path) => spec.moduleId.endsWith(path));
        return i < 0 ? slowest.length : i;
      };
      // Array.prototype.sort is stable: the rest stay in the base order.
      return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
    }
  };
}

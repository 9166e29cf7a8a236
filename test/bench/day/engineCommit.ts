/**
 * Which engine a kept run measured: the commit, with "+dirty" when main/ or shared/ had changes not committed
 * (such a run is never reused). BENCH_COMMIT names it where there is no git (a copy of the tree made with
 * `git archive`, so the runs do not read files being edited).
 */
import { execFileSync } from 'node:child_process';

/** The engine's commit, or null when neither git nor BENCH_COMMIT can tell. */
export function engineCommit(env = process.env): string | null {
  if (env.BENCH_COMMIT) return env.BENCH_COMMIT;
  try {
    const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8' }).trim();
    const dirty = git('status', '--porcelain', '--', 'main', 'shared') !== '';
    return `${git('rev-parse', 'HEAD')}${dirty ? '+dirty' : ''}`;
  } catch {
    return null;
  }
}

/** Whether a kept engine run measured this engine (a clean commit, the same). */
export function sameEngine(kept: Record<string, unknown>, commit: string | null): boolean {
  return commit !== null && !commit.endsWith('+dirty') && kept.commit === commit;
}

/** The busiest sliding 60 s of a poller's day: the most requests sent within any 60 s, wherever it starts. */
export function busiestWindow(sentAt: readonly number[], windowMs = 60_000): number {
  const sorted = [...sentAt].sort((a, b) => a - b);
  let best = 0;
  let from = 0;
  for (let to = 0; to < sorted.length; to++) {
    while (sorted[to]! - sorted[from]! >= windowMs) from += 1;
    best = Math.max(best, to - from + 1);
  }
  return best;
}

import { describe, expect, it } from 'vitest';
import { LatestRequest } from '../../../renderer/src/lib/latestRequest.ts';

/** A request whose answer the test releases when it chooses, as a slow bridge call would. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** A view that shows the answer of its newest request, as the pages and loaders do with the helper. */
function view() {
  const latest = new LatestRequest();
  const state = { shown: null as string | null, loading: false };
  async function load(answer: Promise<string>) {
    const current = latest.begin();
    state.loading = true;
    try {
      const text = await answer;
      if (current()) state.shown = text;
    } finally {
      if (current()) state.loading = false;
    }
  }
  return { latest, state, load };
}

describe('LatestRequest', () => {
  it('keeps the newer answer when an older request answers after it', async () => {
    const v = view();
    const slow = deferred<string>();
    const fast = deferred<string>();
    const first = v.load(slow.promise);
    const second = v.load(fast.promise);
    fast.resolve('filter “critical”');
    await second;
    expect(v.state).toEqual({ shown: 'filter “critical”', loading: false });
    slow.resolve('no filter');
    await first;
    expect(v.state).toEqual({ shown: 'filter “critical”', loading: false });
  });

  it('shows the newest answer when requests answer in order', async () => {
    const v = view();
    await v.load(Promise.resolve('one'));
    await v.load(Promise.resolve('two'));
    expect(v.state.shown).toBe('two');
  });

  it('stays loading while the newest request is out, even when an older one ends', async () => {
    const v = view();
    const old = deferred<string>();
    const newer = deferred<string>();
    const first = v.load(old.promise);
    void v.load(newer.promise);
    old.resolve('old');
    await first;
    expect(v.state).toEqual({ shown: null, loading: true });
  });

  it('a ticket taken with current() belongs to the newest request and ends when another begins', () => {
    const latest = new LatestRequest();
    latest.begin();
    const page = latest.current();
    expect(page()).toBe(true);
    latest.begin();
    expect(page()).toBe(false);
  });
});

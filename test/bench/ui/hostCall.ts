/**
 * The host's own part of the first screen's call, without a browser: a WebSocket client in this process
 * asks a fresh host for the accounts and the first screen (as the window does, together) and times the
 * overviewPage answer, sent → received. The page's figure adds the browser's event loop, which on a loaded
 * machine holds an answer that has already arrived.
 */
import WebSocket from 'ws';
import { bridgeProtocols, secretInFragment } from '../../../shared/bridge/hostCredential.ts';
import { DEFAULT_FILTER } from '../../../shared/bridge/overviewFilter.ts';
import type { OverviewPageArgs } from '../../../shared/bridge/overviewPage.ts';

/** The first screen at 1280×800: the rows the window asks for first (overview.svelte.ts: 800 / 44 + 8). */
const FIRST_SCREEN: OverviewPageArgs = { ...DEFAULT_FILTER, groupByGroup: false, offset: 0, limit: 27 };

/** Milliseconds from sending the host's first overviewPage call to its answer (listAccounts sent with it). */
export async function firstOverviewCallMs(hostUrl: string): Promise<number> {
  const url = new URL(hostUrl);
  const ws = new WebSocket(`ws://${url.host}/bridge`, bridgeProtocols(secretInFragment(url.hash)), {
    headers: { origin: url.origin },
  });
  try {
    await new Promise((done, fail) => ws.once('open', done).once('error', fail));
    const answered = new Promise<number>((done, fail) =>
      ws.on('message', (raw) => {
        const message = JSON.parse(String(raw)) as { id?: number; reply?: { ok: boolean } };
        if (message.id !== 2) return;
        if (message.reply?.ok) done(performance.now());
        else fail(new Error('the host refused the overviewPage call'));
      }),
    );
    ws.send(JSON.stringify({ id: 1, method: 'listAccounts' }));
    const sentAt = performance.now();
    ws.send(JSON.stringify({ id: 2, method: 'overviewPage', args: FIRST_SCREEN }));
    return (await answered) - sentAt;
  } finally {
    ws.close();
  }
}

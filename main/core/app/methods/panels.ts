import { isApiError } from '../../../../shared/api/apiError.ts';
import * as args from '../../../../shared/bridge/args.ts';
import type { BridgeMethods } from '../../../../shared/bridge/contract.ts';
import { PANELS } from '../../../../shared/bridge/panels.ts';
import type { PanelResult } from '../../../../shared/bridge/results.ts';
import { missingScope } from '../../sync/requiredScope.ts';
import { AuthwatchError } from '../authwatchError.ts';
import { guard, parse } from '../guard.ts';
import { pathParameters } from '../editOperations.ts';
import type { Wiring } from '../wiring.ts';

/** A kept panel younger than this answers 'auto' reads without a request. */
const FRESH_MS = 15 * 60_000;

interface StoredPayload {
  data: unknown;
  pagination: PanelResult['pagination'];
}

const sorted = (o: Record<string, unknown> | undefined) =>
  Object.fromEntries(Object.entries(o ?? {}).sort(([a], [b]) => a.localeCompare(b)));

/**
 * On-demand panels (shared/bridge/panels.ts): fetched live with foreground priority inside the account's
 * budget, kept in the mirror, and answered from the mirror — with their age and the live error — when the
 * service cannot be reached. A failed live read is not an exception: the screen shows what it has.
 */
export function panelMethods(w: Wiring): Pick<BridgeMethods, 'readPanel'> {
  const { mirror, engine, clock } = w;
  const inFlight = new Map<string, Promise<PanelResult>>();
  return {
    readPanel: (a) =>
      guard(async () => {
        const p = parse(args.readPanelArgs, a);
        const spec = PANELS[p.panel];
        const account = w.accounts.get(p.accountId);
        const path: Record<string, string | number> = {};
        for (const param of pathParameters(spec.path)) {
          const value = param === 'domain_id' ? p.domainId : p.params?.[param];
          if (value === undefined)
            throw new AuthwatchError(
              'invalid_arguments',
              `${p.panel} needs ${param === 'domain_id' ? 'domainId' : `params.${param}`}.`,
            );
          path[param] = value;
        }
        const allowed = spec.query as readonly string[];
        for (const key of Object.keys(p.query ?? {}))
          if (!allowed.includes(key))
            throw new AuthwatchError('invalid_arguments', `${p.panel} takes no query parameter “${key}”.`);

        const requestKey = JSON.stringify([p.panel, sorted(path), sorted(p.query)]);
        const kept = mirror.getPanel(account.id, requestKey);
        const fromCache = (error: PanelResult['error']): PanelResult => {
          const payload = kept?.payload as StoredPayload | undefined;
          return {
            data: payload?.data ?? null,
            pagination: payload?.pagination ?? null,
            fetchedAt: kept?.fetchedAt ?? null,
            source: 'cache',
            error,
          };
        };
        const mode = p.mode ?? 'auto';
        if (mode === 'cache') return fromCache(null);
        const sinceEdit = w.readSinceEdit.get(account.id);
        const keptSinceEdit = !sinceEdit || sinceEdit.has(requestKey);
        if (mode === 'auto' && kept && keptSinceEdit && clock.now() - Date.parse(kept.fetchedAt) < FRESH_MS)
          return fromCache(null);

        // Two screens (or two re-reads of one) asking the same panel at once share one request: a POST that
        // only reads (the DMARC recommendation) is asked once, not once per re-render.
        const flight = `${account.id} ${requestKey}`;
        const running = inFlight.get(flight);
        if (running) return running;
        const live = (async (): Promise<PanelResult> => {
          try {
            const api = engine.syncer(account).api;
            const result =
              'method' in spec && spec.method === 'POST'
                ? await api.post(spec.path, { params: { path }, body: p.query ?? {}, priority: 'foreground' })
                : await api.get(spec.path, {
                    params: { path, ...(p.query ? { query: p.query } : {}) },
                    priority: 'foreground',
                  });
            const payload: StoredPayload = {
              data: result.data ?? null,
              pagination: result.pagination ?? null,
            };
            const stored = mirror.putPanel({
              accountId: account.id,
              requestKey,
              panel: p.panel,
              domainId: p.domainId ?? null,
              payload,
            });
            sinceEdit?.add(requestKey);
            w.emit({ type: 'panel_changed', accountId: account.id, domainId: p.domainId ?? null });
            return { ...payload, fetchedAt: stored.fetchedAt, source: 'live', error: null };
          } catch (error) {
            if (!isApiError(error)) throw error;
            return fromCache({
              code: error.code,
              message: error.message,
              status: error.status,
              missingScope:
                error.code === 'insufficient_scope'
                  ? missingScope('method' in spec ? spec.method : 'GET', spec.path, error.message)
                  : null,
            });
          }
        })();
        inFlight.set(flight, live);
        try {
          return await live;
        } finally {
          inFlight.delete(flight);
        }
      }),
  };
}

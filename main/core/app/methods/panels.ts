import { z } from 'zod';
import { ApiError, isApiError } from '../../../../shared/api/apiError.ts';
import * as args from '../../../../shared/bridge/args.ts';
import type { BridgeMethods } from '../../../../shared/bridge/contract.ts';
import {
  panelDataSchema,
  panelPaginationSchema,
  type PanelData,
  type PanelResult,
} from '../../../../shared/bridge/panelData.ts';
import { PANELS, panelRequestKey, type PanelName } from '../../../../shared/bridge/panels.ts';
import { documentIssues } from '../../signals/documentCheck.ts';
import { missingScope } from '../../sync/requiredScope.ts';
import { AuthwatchError } from '../authwatchError.ts';
import { guard, parse } from '../guard.ts';
import { pathParameters } from '../editOperations.ts';
import type { Wiring } from '../wiring.ts';

/** A kept panel younger than this answers 'auto' reads without a request. */
const FRESH_MS = 15 * 60_000;

interface StoredPayload<P extends PanelName> {
  data: PanelData<P> | null;
  pagination: PanelResult['pagination'];
}

/** What the mirror keeps of panel P's answer; a copy of another shape is not shown. */
const keptPayload = <P extends PanelName>(panel: P) =>
  z.object({ data: panelDataSchema(panel).nullish(), pagination: panelPaginationSchema.nullish() });

/**
 * The data of a live answer of panel P, or a `malformed_response` ApiError (the kept copy stays shown) when
 * it is not the shape the panel answers with or a value present is outside the document's bounds.
 */
function liveData<P extends PanelName>(panel: P, path: string, data: unknown): PanelData<P> | null {
  const checked = panelDataSchema(panel)
    .nullable()
    .safeParse(data ?? null);
  const issue = checked.success
    ? documentIssues(path, data)[0]
    : { path: '(root)', message: 'is not the shape the panel answers with' };
  if (checked.success && !issue) return checked.data;
  throw new ApiError({
    status: 200,
    code: 'malformed_response',
    message: `The service's ${panel} answer is not what the interface says: ${issue?.path} ${issue?.message}.`,
    requestId: '',
    retryable: false,
  });
}

/**
 * On-demand panels (shared/bridge/panels.ts): fetched live with foreground priority inside the account's
 * budget, kept in the mirror, and answered from the mirror — with their age and the live error — when the
 * service cannot be reached. A failed live read is not an exception: the screen shows what it has.
 */
export function panelMethods(w: Wiring): Pick<BridgeMethods, 'readPanel'> {
  const { mirror, engine, clock } = w;
  const inFlight = new Map<string, Promise<PanelResult>>();
  return {
    readPanel: <P extends PanelName>(a: z.input<typeof args.readPanelArgs> & { panel: P }) =>
      guard(async (): Promise<PanelResult<P>> => {
        const p = { ...parse(args.readPanelArgs, a), panel: a.panel };
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

        const requestKey = panelRequestKey(p.panel, path, p.query);
        const kept = mirror.getPanel(account.id, requestKey);
        const fromCache = (error: PanelResult['error']): PanelResult<P> => {
          const payload = keptPayload(p.panel).safeParse(kept?.payload);
          const copy = payload.success ? payload.data : null;
          return {
            panel: p.panel,
            data: copy?.data ?? null,
            pagination: copy?.pagination ?? null,
            fetchedAt: copy ? (kept?.fetchedAt ?? null) : null,
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
        if (running) return running as Promise<PanelResult<P>>;
        const live = (async (): Promise<PanelResult<P>> => {
          try {
            const api = engine.syncer(account).api;
            const result =
              'method' in spec && spec.method === 'POST'
                ? await api.post(spec.path, { params: { path }, body: p.query ?? {}, priority: 'foreground' })
                : await api.get(spec.path, {
                    params: { path, ...(p.query ? { query: p.query } : {}) },
                    priority: 'foreground',
                  });
            const payload: StoredPayload<P> = {
              data: liveData(p.panel, spec.path, result.data),
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
            return { panel: p.panel, ...payload, fetchedAt: stored.fetchedAt, source: 'live', error: null };
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

/**
 * A panel's answer as it crosses the bridge, typed per panel from openapi.yaml: the data of a panel is the
 * `data` of the operation its path names (shared/api/types.gen.ts), as kept — every field, at every depth, may
 * be missing or null (`Stored`), because main checks only the bounds of the values present (the document's
 * own schemas, DESIGN.md "tolerance"). Whether a panel's data is a list or one object is checked at run time
 * (main before keeping an answer, the bridge before handing it over), from the list below — which the
 * compiler holds to the document.
 */
import { z } from 'zod';
import type { paths } from '../api/types.gen.ts';
import type { DataOf } from '../api/typedClient.ts';
import { PANEL_NAMES, type PanelName, type PANELS } from './panels.ts';
import type { Stored } from './storedAnswers.ts';

type Spec<P extends PanelName> = (typeof PANELS)[P];
type Operation<P extends PanelName> =
  Spec<P> extends { method: 'POST' } ? paths[Spec<P>['path']]['post'] : paths[Spec<P>['path']]['get'];

/** The `data` of panel P's answer as the interface declares it. */
type DeclaredData<P extends PanelName> = DataOf<Operation<P>>;

/** The data of panel P as kept and handed to the renderer (distributes over a union of panels). */
export type PanelData<P extends PanelName> = P extends PanelName ? Stored<DeclaredData<P>> : never;

type ListPanel = { [P in PanelName]: DeclaredData<P> extends readonly unknown[] ? P : never }[PanelName];

/** The panels whose data is a list (the rest answer one object). */
const LIST_PANELS = [
  'dns_history',
  'dmarc_history',
  'spf_history',
  'spf_includes',
  'spf_ip_actions',
  'tls_rpt_reports',
  'tls_rpt_failure_details',
  'audit_logs',
  'tokens',
  'users',
  'roles',
  'domain_groups',
  'domain_group_domains',
  'bimi_registrations',
] as const satisfies readonly ListPanel[];

// A list panel left out above fails the build here, naming it.
type Unlisted = Exclude<ListPanel, (typeof LIST_PANELS)[number]>;
const everyListPanelListed: [Unlisted] extends [never] ? true : Unlisted = true;
void everyListPanelListed;

const LISTS: ReadonlySet<PanelName> = new Set(LIST_PANELS);

const isObject = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whether `data` has the shape panel `panel` answers with: a list of objects, or one object. */
function hasPanelShape(panel: PanelName, data: unknown): boolean {
  return LISTS.has(panel) ? Array.isArray(data) && data.every(isObject) : isObject(data);
}

/** The schema of panel P's data (its fields were checked against the document when it was fetched). */
export function panelDataSchema<P extends PanelName>(panel: P): z.ZodType<PanelData<P>> {
  const kind = LISTS.has(panel) ? 'a list of objects' : 'an object';
  return z.custom<PanelData<P>>((data) => hasPanelShape(panel, data), `${panel}: expected ${kind}`);
}

/** The pagination of a list panel's answer. */
export const panelPaginationSchema = z.object({
  page: z.number(),
  limit: z.number(),
  total: z.number(),
  has_more: z.boolean(),
});

const panelErrorSchema = z.object({
  code: z.string(),
  message: z.string(),
  status: z.number(),
  missingScope: z.string().nullable(),
});

/** A panel's answer: live or from the mirror, always with its age and, when the live read failed, why. */
export const panelResultSchema = z
  .object({
    panel: z.enum(PANEL_NAMES),
    /**
     * The interface's `data` (and `pagination` for lists), or null when never fetched: typed per panel by the
     * contract's `readPanel` (PanelResult below); whether it is the panel's list or object is checked below.
     */
    data: z
      .custom<PanelData<PanelName>>(
        (data) => isObject(data) || (Array.isArray(data) && data.every(isObject)),
        'expected a list of objects or an object',
      )
      .nullable(),
    pagination: panelPaginationSchema.nullable(),
    fetchedAt: z.string().nullable(),
    /** 'live': fetched for this call; 'cache': from the mirror. */
    source: z.enum(['live', 'cache']),
    /** Why the live read failed (the cached copy, if any, is in data). */
    error: panelErrorSchema.nullable(),
  })
  .refine((r) => r.data === null || hasPanelShape(r.panel, r.data), {
    path: ['data'],
    message: 'not the shape the panel answers with',
  });

type PanelResultFields = Omit<z.infer<typeof panelResultSchema>, 'panel' | 'data'>;

/** Panel P's answer (any panel's when P is left out). */
export type PanelResult<P extends PanelName = PanelName> = PanelResultFields & {
  panel: P;
  data: PanelData<P> | null;
};

/**
 * Every operation handler of the service, merged from the group files. A group file exports
 * `handlers: OperationHandlers` keyed by operationId; an operationId must be served by one file only.
 */
import type { OperationHandlers } from '../http/operation.ts';
import { handlers as system } from './system.ts';
import { handlers as auth } from './auth.ts';
import { handlers as me } from './me.ts';
import { handlers as auditLogs } from './auditLogs.ts';
import { handlers as users } from './users.ts';
import { handlers as roles } from './roles.ts';
import { handlers as domains } from './domains.ts';
import { handlers as domainGroups } from './domainGroups.ts';
import { handlers as hostedDmarc } from './hostedDmarc.ts';
import { handlers as hostedSpf } from './hostedSpf.ts';
import { handlers as bimi } from './bimi.ts';
import { handlers as mtaSts } from './mtaSts.ts';
import { handlers as tlsRpt } from './tlsRpt.ts';
import { handlers as analytics } from './analytics.ts';
import { handlers as dnsTimeline } from './dnsTimeline.ts';
import { handlers as mailAnalytics } from './mailAnalytics.ts';
import { handlers as tlsRptReports } from './tlsRptReports.ts';

const GROUPS: Record<string, OperationHandlers> = {
  system,
  auth,
  me,
  auditLogs,
  users,
  roles,
  domains,
  domainGroups,
  hostedDmarc,
  hostedSpf,
  bimi,
  mtaSts,
  tlsRpt,
  analytics,
  dnsTimeline,
  mailAnalytics,
  tlsRptReports,
};

/** Merges the group files; throws when two groups serve the same operationId. */
export function mergeHandlers(groups: Record<string, OperationHandlers>): OperationHandlers {
  const merged: OperationHandlers = {};
  const owner = new Map<string, string>();
  for (const [group, handlers] of Object.entries(groups)) {
    for (const [operationId, handler] of Object.entries(handlers)) {
      const previous = owner.get(operationId);
      if (previous) throw new Error(`${operationId} is served by both ${previous}.ts and ${group}.ts`);
      owner.set(operationId, group);
      merged[operationId] = handler;
    }
  }
  return merged;
}

/** All handlers of the service, keyed by operationId. */
export const allHandlers: OperationHandlers = mergeHandlers(GROUPS);

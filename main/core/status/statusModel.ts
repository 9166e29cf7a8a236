import type { AlertCatalogue } from '../alerts/ruleSet.ts';
import type { StatusModel } from '../mirror/statusSummary.ts';
import { domainStatus, STATUS_MODEL_VERSION } from './domainStatus.ts';
import { newestObservation, statusInputOf } from './statusInput.ts';

/**
 * The status model as the mirror keeps it, in the registry openMirror is given (runtime/registry.ts): the
 * mirror stores each domain's status and queries its rows; deriving the status from them is this folder's,
 * above the mirror in core's order. Its verdicts say alerts in the words of `catalogue`, the whole rule
 * registry's (the live checks' rules are above this folder: the runtime passes it).
 */
export function statusModel(catalogue: AlertCatalogue): StatusModel {
  return {
    version: STATUS_MODEL_VERSION,
    derive: (rows) => domainStatus(statusInputOf(rows), catalogue),
    observedAt: newestObservation,
  };
}

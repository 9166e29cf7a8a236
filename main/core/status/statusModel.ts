import type { StatusModel } from '../mirror/statusSummary.ts';
import { domainStatus, STATUS_MODEL_VERSION } from './domainStatus.ts';
import { newestObservation, statusInputOf } from './statusInput.ts';

/**
 * The status model as the mirror keeps it, in the registry openMirror is given (runtime/registry.ts): the
 * mirror stores each domain's status and queries its rows; deriving the status from them is this folder's,
 * above the mirror in core's order.
 */
export const STATUS_MODEL: StatusModel = {
  version: STATUS_MODEL_VERSION,
  derive: (rows) => domainStatus(statusInputOf(rows)),
  observedAt: newestObservation,
};

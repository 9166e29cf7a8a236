import type { EditOperationName } from '../../../shared/bridge/editOperationNames.ts';
import { isRecord } from './shape.ts';

/** What an edit did, as the service answered. */
export interface Outcome {
  ok: boolean;
  status: number | null;
  requestId: string | null;
  message: string;
}

/** The parts of an edit's answer the form keeps apart: a token's plain text, a bulk job, the rest. */
export interface EditAnswer {
  /** A created token's plain text (shown once), or null. */
  secret: string | null;
  /** The bulk add's job to follow, or null. */
  jobId: string | null;
  /** The answer's data as shown under a disclosure (never a token's plain text), or null. */
  answer: string | null;
  /** The same data, for previews that read it (flatten). */
  answerData: unknown;
}

/** Splits an edit's answer data: the created token's plain text never joins the shown answer. */
export function readEditAnswer(operation: EditOperationName, data: unknown): EditAnswer {
  if (!isRecord(data)) return { secret: null, jobId: null, answer: null, answerData: null };
  const { plain_text: plain, job_id: job, ...rest } = data;
  const kept = job === undefined ? rest : { ...rest, job_id: job };
  return {
    secret: operation === 'createToken' && typeof plain === 'string' ? plain : null,
    jobId: operation === 'bulkCreateDomains' && typeof job === 'string' ? job : null,
    answer: JSON.stringify(kept, null, 2),
    answerData: kept,
  };
}

/**
 * A failed edit in words, with the service's status and request id when main passed them on. Read by shape,
 * not by class: an error that crossed Electron's context bridge is a plain copy of the BridgeError.
 */
export function failedOutcome(error: unknown): Outcome {
  const details = isRecord(error) && isRecord(error.details) ? error.details : {};
  return {
    ok: false,
    status: typeof details.status === 'number' ? details.status : null,
    requestId: typeof details.requestId === 'string' ? details.requestId : null,
    message: isRecord(error) && typeof error.message === 'string' ? error.message : String(error),
  };
}

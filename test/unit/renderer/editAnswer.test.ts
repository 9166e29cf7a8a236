import { describe, expect, it } from 'vitest';
import { BridgeError } from '../../../shared/bridge/bridgeError.ts';
import { failedOutcome, readEditAnswer } from '../../../renderer/src/lib/editAnswer.ts';

describe("an edit's answer", () => {
  it("keeps a created token's plain text out of the answer shown", () => {
    const read = readEditAnswer('createToken', { id: 3, name: 'ci', plain_text: 'aw_secret_123' });
    expect(read.secret).toBe('aw_secret_123');
    expect(read.answer).not.toContain('aw_secret_123');
    expect(read.answerData).toEqual({ id: 3, name: 'ci' });
  });

  it("follows a bulk add's job and shows its id", () => {
    const read = readEditAnswer('bulkCreateDomains', { job_id: 'job-9', accepted: 2 });
    expect(read.jobId).toBe('job-9');
    expect(read.answerData).toEqual({ accepted: 2, job_id: 'job-9' });
    expect(readEditAnswer('bulkCreateDomains', null)).toEqual({
      secret: null,
      jobId: null,
      answer: null,
      answerData: null,
    });
  });

  it("words a failure with the service's status and request id, also from a plain copy of the error", () => {
    const error = new BridgeError('api_error', 'The service refused the change.', {
      status: 422,
      requestId: 'req-1',
    });
    const outcome = {
      ok: false,
      status: 422,
      requestId: 'req-1',
      message: 'The service refused the change.',
    };
    expect(failedOutcome(error)).toEqual(outcome);
    // What Electron's context bridge hands over: the fields, without the class.
    expect(failedOutcome({ message: error.message, details: error.details })).toEqual(outcome);
    expect(failedOutcome(new Error('offline'))).toEqual({
      ok: false,
      status: null,
      requestId: null,
      message: 'offline',
    });
  });
});

import { DeliveryError } from './deliveryError.ts';

/**
 * Runs one send under a deadline of its own: a timer held here (an `AbortSignal.timeout` the fetch keeps only
 * weakly can be collected and never fire) aborts the signal the transport is given, and the send is given up
 * on at that moment whether or not the transport noticed. A send that did not finish is a failure, so the
 * delivery stays queued: it is never counted delivered.
 */
export async function withinDeadline<T>(ms: number, send: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const late = new DeliveryError(`no complete answer within ${formatSeconds(ms)}; given up for this attempt`);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      controller.abort(late);
      reject(late);
    }, ms);
  });
  try {
    return await Promise.race([send(controller.signal), expired]);
  } catch (error) {
    // Whatever the transport threw once the deadline passed (an AbortError, a reset), the deadline is the cause.
    if (controller.signal.aborted) throw late;
    throw error;
  } finally {
    clearTimeout(timer);
    expired.catch(() => undefined);
  }
}

function formatSeconds(ms: number): string {
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
}

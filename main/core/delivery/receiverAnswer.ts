import { DeliveryError, errorWords } from './deliveryError.ts';

/** How much of a receiver's answer is read; the rest is cancelled (a 600 MiB answer must not be held). */
export const ANSWER_LIMIT_BYTES = 64 * 1024;

/** What a receiver answered: its status and the start of its body (at most ANSWER_LIMIT_BYTES). */
export interface ReceiverAnswer {
  status: number;
  text: string;
}

/** One POST to a receiver (webhook, Slack, Teams, Alertmanager). */
export interface ReceiverPost {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** What may be shown of the receiver in errors ("Alertmanager at https://am.example/…"). */
  shown: string;
  /** Text never shown in errors (the URL when it carries a token). */
  hide: readonly string[];
}

/**
 * POSTs and reads at most ANSWER_LIMIT_BYTES of the answer, cancelling the rest. The request and the reading
 * of its body both end when `signal` aborts — raced here, so a fetch that ignores its signal or a body that
 * drips cannot hold the send past its deadline; the body is cancelled then. Redirects are refused, never
 * followed: the message (and a token in the URL) must not travel elsewhere. Errors are DeliveryErrors in
 * words; a body that broke off is an error (the receiver's answer did not finish).
 */
export async function postToReceiver(
  fetchImpl: typeof fetch,
  post: ReceiverPost,
  signal: AbortSignal,
): Promise<ReceiverAnswer> {
  const abandoned = new Promise<never>((_resolve, reject) => {
    const stop = () => reject(new DeliveryError(`${post.shown} did not answer in time`));
    if (signal.aborted) stop();
    else signal.addEventListener('abort', stop, { once: true });
  });
  abandoned.catch(() => undefined);
  const target = new URL(post.url);
  const headers = { ...post.headers };
  const hide = [...post.hide];
  if (target.username || target.password) {
    // fetch refuses a URL with credentials: they travel as Basic authentication instead.
    const user = decodeURIComponent(target.username);
    const password = decodeURIComponent(target.password);
    headers.authorization = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
    hide.push(password);
    target.username = '';
    target.password = '';
  }
  hide.unshift(target.href);
  let response: Response;
  try {
    response = await Promise.race([
      fetchImpl(target.href, {
        method: 'POST',
        headers,
        body: post.body,
        signal,
        redirect: 'manual',
      }),
      abandoned,
    ]);
  } catch (error) {
    if (error instanceof DeliveryError) throw error;
    throw new DeliveryError(`${post.shown} could not be reached: ${errorWords(error, hide)}`);
  }
  if (response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400)) {
    await response.body?.cancel().catch(() => undefined);
    throw new DeliveryError(
      `${post.shown} answered with a redirect${response.status ? ` (HTTP ${response.status})` : ''}; ` +
        'redirects are not followed — give the address it points to',
    );
  }
  try {
    return { status: response.status, text: await readStart(response.body, abandoned) };
  } catch (error) {
    if (error instanceof DeliveryError) throw error;
    throw new DeliveryError(`${post.shown} broke off its answer: ${errorWords(error, hide)}`);
  }
}

/**
 * The first ANSWER_LIMIT_BYTES of a body as text. Each read races `abandoned`; however the reading ends (enough
 * read, the deadline, an error) the rest of the body is cancelled unread, which closes the connection.
 */
async function readStart(
  body: ReadableStream<Uint8Array> | null,
  abandoned: Promise<never>,
): Promise<string> {
  if (!body) return '';
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    while (total < ANSWER_LIMIT_BYTES) {
      const { done, value } = await Promise.race([reader.read(), abandoned]);
      if (done) break;
      chunks.push(value.subarray(0, ANSWER_LIMIT_BYTES - total));
      total += value.byteLength;
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

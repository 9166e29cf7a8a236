/** A delivery that failed, in words fit for the channel's state line (never a secret, never a full URL). */
export class DeliveryError extends Error {
  override readonly name = 'DeliveryError';
}

/** An error's message in one line, with `hide` (a secret URL, a password) replaced wherever it appears. */
export function errorWords(error: unknown, hide: readonly string[] = []): string {
  let text =
    error instanceof Error
      ? error.message + (error.cause instanceof Error ? `: ${error.cause.message}` : '')
      : String(error);
  for (const secret of hide) if (secret) text = text.split(secret).join('…');
  return text.replace(/\s+/g, ' ').trim().slice(0, 300) || 'unknown error';
}

// Kept apart from contract.ts (which builds zod schemas at load) so the sandboxed preload, which bundles
// remote.ts, stays free of zod.

/** The error every bridge call rejects with, as plain data. */
export interface BridgeErrorData {
  code: string;
  message: string;
  details?: unknown;
}

/** An error from main, rebuilt on the renderer's side (code and details survive the crossing). */
export class BridgeError extends Error {
  override readonly name = 'BridgeError';
  constructor(
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

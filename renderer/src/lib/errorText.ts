/**
 * The words of a failure as the page shows them: its message. Read by shape, not by class: an error that
 * crossed Electron's context bridge may arrive as a plain copy of the BridgeError.
 */
export function errorText(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'message' in error && typeof error.message === 'string')
    return error.message;
  return String(error);
}

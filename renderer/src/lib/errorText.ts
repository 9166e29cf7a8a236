/** The words of a failure as the page shows them: a bridge error's message (anything else, as text). */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The URL to hand to the user's browser, or null: https only, no credentials in it, a real host name. Links
 * from the renderer (a window.open, a target=_blank) never open inside the app.
 */
export function safeExternalUrl(url: string): string | null {
  if (typeof url !== 'string' || url.length > 2048) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'https:' || parsed.username || parsed.password || !parsed.hostname) return null;
  return parsed.href;
}

/**
 * Opens a link in the user's browser when safeExternalUrl accepts it; false otherwise. The app's only call of
 * shell.openExternal: every caller (window.open, a clicked link, the bridge's openExternal) goes through here,
 * so the URL check cannot be skipped.
 */
export async function openHttpsLink(
  shell: { openExternal(url: string): Promise<void> },
  url: string,
): Promise<boolean> {
  const safe = safeExternalUrl(url);
  if (!safe) return false;
  // Reviewed: `safe` is an https URL without credentials, re-serialized by the URL parser.
  await shell.openExternal(safe); /* eng-disable OPEN_EXTERNAL_JS_CHECK */
  return true;
}

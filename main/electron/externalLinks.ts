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

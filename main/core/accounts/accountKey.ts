/**
 * The key a token is filed under in a SecretStore: "label@base URL". It names the account the way the user
 * sees it in the OS keychain's UI and needs no database, so the desktop app and the `authwatch` command
 * find the same token. Renaming an account or changing its base URL moves the secret.
 */
export function accountKey(account: { label: string; baseUrl: string }): string {
  return `${account.label}@${account.baseUrl}`;
}

import { z } from 'zod';
import type { BridgeMethods } from '../../../shared/bridge/contract.ts';
import { updateLiveChecksArgs } from '../../../shared/bridge/liveChecks.ts';

/** The variable `npm run demo` hands the desktop app its demo account in (never a command-line argument). */
export const DEMO_ACCOUNT_ENV = 'AUTHWATCH_DEMO_ACCOUNT';

const demoAccount = z.strictObject({
  label: z.string().min(1),
  baseUrl: z.string().min(1),
  token: z.string().min(8),
  /** Settings → Live checks pointed at the demo's reference world (its ports, CA file, blocklist zone). */
  liveChecks: updateLiveChecksArgs.optional(),
});

/**
 * Adds the account `npm run demo` describes in AUTHWATCH_DEMO_ACCOUNT (JSON label/baseUrl/token), through
 * the facade, so its token goes to the app's own secret store (and its live-check settings, when it has
 * some, to Settings → Live checks); then removes the variable from the
 * environment so nothing started later inherits it. Does nothing without it or when the label exists.
 */
export async function addDemoAccount(
  app: Pick<BridgeMethods, 'addAccount' | 'listAccounts' | 'updateLiveChecks'>,
  env: NodeJS.ProcessEnv,
): Promise<string | null> {
  const raw = env[DEMO_ACCOUNT_ENV];
  if (!raw) return null;
  delete env[DEMO_ACCOUNT_ENV];
  let parsed: z.infer<typeof demoAccount>;
  try {
    parsed = demoAccount.parse(JSON.parse(raw));
  } catch {
    throw new Error(`${DEMO_ACCOUNT_ENV} is not a demo account (label, baseUrl, token)`);
  }
  const { liveChecks, ...account } = parsed;
  if (liveChecks) await app.updateLiveChecks(liveChecks);
  if ((await app.listAccounts()).some((a) => a.label === account.label)) return account.label;
  await app.addAccount(account);
  return parsed.label;
}

import { z } from 'zod';
import type { BridgeMethods } from '../../../shared/bridge/contract.ts';

/** The variable `npm run demo` hands the desktop app its demo account in (never a command-line argument). */
export const DEMO_ACCOUNT_ENV = 'AUTHWATCH_DEMO_ACCOUNT';

const demoAccount = z.strictObject({
  label: z.string().min(1),
  baseUrl: z.string().min(1),
  token: z.string().min(8),
});

/**
 * Adds the account `npm run demo` describes in AUTHWATCH_DEMO_ACCOUNT (JSON label/baseUrl/token), through
 * the facade, so its token goes to the app's own secret store; then removes the variable from the
 * environment so nothing started later inherits it. Does nothing without it or when the label exists.
 */
export async function addDemoAccount(
  app: Pick<BridgeMethods, 'addAccount' | 'listAccounts'>,
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
  if ((await app.listAccounts()).some((a) => a.label === parsed.label)) return parsed.label;
  await app.addAccount(parsed);
  return parsed.label;
}

/**
 * The reference world's live side as `npm run demo` turns it on: the service serves each MTA-STS policy over
 * HTTPS and an MX with STARTTLS (certificates of a test CA whose root it writes to the demo folder), its zone
 * carries the test blocklist `bl.authwatch.test`, and the app's live checks are pointed at all of it (the CA
 * file, the two ports, the zone). The demo then makes things expire so the portfolio's "Expiring soon" card
 * has real entries: the MTA-STS certificate of acme.example in 9 days, the VMC of acme.example in 20 days and
 * the app's own API token in 12 days — each a real certificate or token the checks read, not a fixture.
 */
import { join } from 'node:path';
import { ALL_V1_SCOPE_IDS } from '../service/auth/scopes.ts';
import { demoVmcExpiringIn } from './demoVmc.ts';

/** Where the world's servers listen, and the CA file the app must trust. */
export interface DemoLiveWorld {
  caFile: string;
  httpsPort: number;
  smtpPort: number;
}

/** The test blocklist zone the reference service's DNS serves (RFC 5782's 127.0.0.2 always listed). */
export const DEMO_DNSBL_ZONE = 'bl.authwatch.test';

/** What the demo makes expire, in days from its start. */
export const DEMO_EXPIRING = { mtaStsCertificate: 9, vmc: 20, token: 12 } as const;

/** The domain the demo's expiring certificate and VMC belong to (MTA-STS enforce, BIMI with a VMC). */
const DEMO_DOMAIN = 'acme.example';

/** The service's arguments for the live world, its CA written in the demo folder. */
export function liveWorldArgs(demoDir: string): string[] {
  return ['--https-port', '0', '--smtp-port', '0', '--ca-file', join(demoDir, 'reference-ca.pem')];
}

/** The live world's lines of the service's stdout (`ca-file …`, `https://…:P`, `smtp://…:Q`), once all came. */
export function liveWorldLines(stdout: string): DemoLiveWorld | null {
  const caFile = /^ca-file (.+)$/m.exec(stdout)?.[1];
  const https = /^https:\/\/\S+:(\d+)$/m.exec(stdout)?.[1];
  const smtp = /^smtp:\/\/\S+:(\d+)$/m.exec(stdout)?.[1];
  return caFile && https && smtp ? { caFile, httpsPort: Number(https), smtpPort: Number(smtp) } : null;
}

/** Settings → Live checks for the demo: the world's ports, its CA, and its test blocklist zone. */
export function demoLiveCheckSettings(world: DemoLiveWorld) {
  return {
    httpsPort: world.httpsPort,
    smtpPort: world.smtpPort,
    extraCaFile: world.caFile,
    kinds: { dnsbl: { enabled: true, zones: [DEMO_DNSBL_ZONE] } },
  };
}

/** A caller of the service's sandbox (README "Sandbox controls"), throwing unless it answers 2xx. */
function sandboxCaller(origin: string, sandboxKey: string) {
  return async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const res = await fetch(`${origin}${path}`, {
      method,
      headers: {
        'x-sandbox-key': sandboxKey,
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`the demo's ${method} ${path} was refused (${res.status}): ${text}`);
    return text ? (JSON.parse(text) as unknown) : undefined;
  };
}

/**
 * Makes the demo's things expire soon and answers the token the app is to use: one of the demo owner with
 * every scope that expires in 12 days (the curl token of credentials.env keeps its year).
 */
export async function seedExpiring(o: {
  baseUrl: string;
  sandboxKey: string;
  /** The owner's long-lived token (to upload the VMC through the API as any client would). */
  ownerToken: string;
}): Promise<{ appToken: string }> {
  const origin = o.baseUrl.replace(/\/api\/v1$/, '');
  const sandbox = sandboxCaller(origin, o.sandboxKey);
  await sandbox('PUT', `/_sandbox/tls/certificates/mta-sts.${DEMO_DOMAIN}`, {
    expires_in_days: DEMO_EXPIRING.mtaStsCertificate,
  });
  await demoVmcExpiringIn(DEMO_EXPIRING.vmc, {
    baseUrl: o.baseUrl,
    token: o.ownerToken,
    sandbox,
    fqdn: DEMO_DOMAIN,
  });
  const issued = (await sandbox('POST', '/_sandbox/tokens', {
    scopes: [...ALL_V1_SCOPE_IDS],
    name: 'Authwatch demo (desktop)',
    expires_in_days: DEMO_EXPIRING.token,
  })) as { data: { plain_text: string } };
  return { appToken: issued.data.plain_text };
}

/**
 * The demo's VMC that expires soon: a Verified Mark Certificate for the demo domain (BIMI usage, the hosted
 * logo embedded as an RFC 3709 logotype) issued by a test CA made here, valid until N days from now; the CA's
 * root is registered with the sandbox's VMC trust roots (as the demo seed does for its own), and the chain is
 * uploaded with that root after it (the analysis wants more than a lone leaf) through the API, as a renewal
 * would be (PATCH /domains/{id}/bimi {vmc_pem}).
 */
import { readFileSync } from 'node:fs';
import { createTestCa } from '../service/tls/testCa.ts';
import { logotypeExtensionDer } from './vmc/logotypeExtension.ts';

const BIMI_EKU = '1.3.6.1.5.5.7.3.31';
const LOGOTYPE = '1.3.6.1.5.5.7.1.12';
const DAY_MS = 86_400_000;

/** Issues the VMC, trusts its root in the sandbox and uploads it for `fqdn`. */
export async function demoVmcExpiringIn(
  days: number,
  o: {
    baseUrl: string;
    token: string;
    fqdn: string;
    sandbox: (method: string, path: string, body?: unknown) => Promise<unknown>;
  },
): Promise<void> {
  const ca = createTestCa('Authwatch demo VMC root');
  const logo = readFileSync(new URL('../service/seed/assets/acme-logo.svg', import.meta.url), 'utf8');
  const leaf = ca.issue([o.fqdn], new Date(Date.now() + days * DAY_MS), new Date(), {
    extKeyUsage: BIMI_EKU,
    extensions: [{ id: LOGOTYPE, der: logotypeExtensionDer(logo) }],
  });
  await o.sandbox('POST', '/_sandbox/vmc-roots', { pem: ca.rootPem });
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${o.baseUrl}${path}`, {
      method,
      headers: {
        'x-api-token': o.token,
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`the demo's ${method} ${path} was refused (${res.status}): ${text}`);
    return JSON.parse(text) as { data: unknown };
  };
  const domains = (await api('GET', `/domains?limit=100`)).data as {
    id: number;
    fqdn: string;
  }[];
  const domain = domains.find((d) => d.fqdn === o.fqdn);
  if (!domain) throw new Error(`the demo portfolio has no ${o.fqdn}`);
  await api('PATCH', `/domains/${domain.id}/bimi`, { vmc_pem: leaf.cert + ca.rootPem });
}

/**
 * The reference world's TLS state: the test CA, and what certificate each host name is served with — by
 * default one valid for that name for 90 days; the sandbox (service/sandbox/tls.ts) can make a host's
 * certificate expire in N days, or name another host (a mismatch). Secure contexts are made once per plan.
 */
import { createSecureContext, type SecureContext } from 'node:tls';
import { createTestCa, type TestCa } from './testCa.ts';

/** How one host's certificate is made. */
export interface CertificatePlan {
  /** Days from now until notAfter (negative: already expired). */
  expiresInDays: number;
  /** The name the certificate is for (default: the host asked for). */
  servedName?: string;
}

const DEFAULT_PLAN: CertificatePlan = { expiresInDays: 90 };
const DAY = 86_400_000;

export class TlsWorld {
  readonly ca: TestCa;
  private readonly plans = new Map<string, CertificatePlan>();
  private readonly contexts = new Map<string, SecureContext>();

  constructor(private readonly clock: () => Date = () => new Date()) {
    this.ca = createTestCa('Authwatch reference world test CA', clock());
  }

  /** Sets (or with null, resets) the plan of one host name. */
  setPlan(host: string, plan: CertificatePlan | null): void {
    const name = host.toLowerCase().replace(/\.$/, '');
    if (plan) this.plans.set(name, plan);
    else this.plans.delete(name);
  }

  planOf(host: string): CertificatePlan {
    return this.plans.get(host.toLowerCase()) ?? DEFAULT_PLAN;
  }

  /** The secure context served for `servername` (SNI). */
  contextFor(servername: string): SecureContext {
    const host = servername.toLowerCase().replace(/\.$/, '') || 'localhost';
    const plan = this.planOf(host);
    const key = `${host} ${plan.servedName ?? ''} ${plan.expiresInDays}`;
    let context = this.contexts.get(key);
    if (!context) {
      const now = this.clock();
      const issued = this.ca.issue(
        [plan.servedName ?? host],
        new Date(now.getTime() + plan.expiresInDays * DAY),
        now,
      );
      context = createSecureContext({ key: issued.key, cert: issued.cert });
      this.contexts.set(key, context);
    }
    return context;
  }

  /** Node's SNICallback over contextFor. */
  readonly sniCallback = (servername: string, done: (error: Error | null, ctx?: SecureContext) => void) => {
    try {
      done(null, this.contextFor(servername));
    } catch (error) {
      done(error as Error);
    }
  };
}

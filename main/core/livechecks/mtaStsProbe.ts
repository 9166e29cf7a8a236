/**
 * The MTA-STS live check's probe (defs/mtaStsLive.ts): the `_mta-sts` record, the policy host's address, the
 * policy fetched as a sender would (./policyFetch.ts), parsed, and its mx patterns set against the live MX.
 */
import { z } from 'zod';
import {
  mxMatchesPattern,
  parseMtaStsPolicy,
  parseMtaStsRecord,
} from '../../../shared/email-auth/mtaStsPolicy.ts';
import type { ProbeContext, ProbeOutcome } from './definition.ts';
import { certificateSeenSchema } from './peerCertificate.ts';
import { fetchPolicy, type PolicyFetch } from './policyFetch.ts';
import { TunnelError } from './proxyTunnel.ts';

/** What one look saw (stored as the check's result). */
export const resultSchema = z.object({
  txtId: z.string(),
  host: z.string(),
  address: z.string().nullable(),
  status: z.number().nullable(),
  /** Why there is no usable policy (other than its certificate), in words; null when it was read. */
  error: z.string().nullable(),
  certificate: certificateSeenSchema.nullable(),
  policyText: z.string().nullable(),
  policy: z
    .object({ mode: z.enum(['none', 'testing', 'enforce']), maxAge: z.number(), mx: z.array(z.string()) })
    .nullable(),
  /** The domain's MX hosts when they could be read. */
  liveMx: z.array(z.string()).nullable(),
  uncoveredMx: z.array(z.string()),
});
export type MtaStsLive = z.infer<typeof resultSchema>;

/** Looks at the domain's MTA-STS as a sending MTA would. */
export async function probeMtaSts(ctx: ProbeContext<unknown>): Promise<ProbeOutcome<MtaStsLive>> {
  const fqdn = ctx.target.fqdn!;
  const txt = await ctx.lookup(`_mta-sts.${fqdn}`, 'TXT');
  if (txt.kind === 'unknown') return { status: 'unknown', words: `DNS could not say (${txt.reason})` };
  const records =
    txt.kind === 'records' ? txt.values.map((v) => v.join('')).filter((v) => /^v=STSv1/i.test(v)) : [];
  if (records.length === 0)
    return { status: 'not_applicable', words: 'no _mta-sts record: MTA-STS is not set up' };
  const parsedTxt = records.length === 1 ? parseMtaStsRecord(records[0]!) : null;
  const txtId = parsedTxt?.value?.id ?? '';
  const host = `mta-sts.${fqdn}`;
  const base: MtaStsLive = {
    txtId,
    host,
    address: null,
    status: null,
    error: null,
    certificate: null,
    policyText: null,
    policy: null,
    liveMx: null,
    uncoveredMx: [],
  };
  if (!parsedTxt?.ok) {
    return {
      status: 'checked',
      result: {
        ...base,
        error:
          records.length > 1
            ? 'more than one _mta-sts record: senders ignore them all'
            : 'the _mta-sts record is not valid',
      },
    };
  }
  const found = await ctx.addresses(host);
  if (found.kind === 'unknown') return { status: 'unknown', words: `DNS could not say (${found.reason})` };
  if (found.kind === 'absent')
    return { status: 'checked', result: { ...base, error: `${host} has no address` } };
  const address = found.values[0]!;
  await ctx.connection();
  let fetched: PolicyFetch;
  try {
    fetched = await fetchPolicy({
      host,
      address,
      port: ctx.ports.https,
      ca: ctx.ca,
      timeoutMs: ctx.timeoutMs,
      now: ctx.now,
      proxy: ctx.proxyFor(new URL(`https://${host}:${ctx.ports.https}/`)),
    });
  } catch (error) {
    // The company proxy, not the policy host, failed: no evidence, and one notice for the network.
    if (error instanceof TunnelError) return { status: 'unknown', words: error.message, blocked: true };
    throw error;
  }
  const certificateBad = fetched.certificate !== null && !fetched.certificate.valid;
  const parsed = fetched.body === null ? null : parseMtaStsPolicy(fetched.body);
  const error = certificateBad
    ? null
    : (fetched.error ??
      (parsed && !parsed.ok
        ? `the policy file is not valid: ${parsed.errors.map((e) => e.message).join('; ')}`
        : null));
  const policy = parsed?.value
    ? { mode: parsed.value.mode, maxAge: parsed.value.max_age, mx: parsed.value.mx }
    : null;
  const mxLookup = policy ? await ctx.lookup(fqdn, 'MX') : null;
  const liveMx =
    mxLookup?.kind === 'records'
      ? mxLookup.values.map((v) => (v[1] ?? '').toLowerCase()).filter(Boolean)
      : mxLookup?.kind === 'absent'
        ? []
        : null;
  return {
    status: 'checked',
    result: {
      ...base,
      address,
      status: fetched.status,
      error,
      certificate: fetched.certificate,
      policyText: fetched.body,
      policy,
      liveMx,
      uncoveredMx:
        policy && liveMx ? liveMx.filter((h) => !policy.mx.some((p) => mxMatchesPattern(h, p))) : [],
    },
  };
}

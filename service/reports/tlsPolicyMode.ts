/** The MTA-STS mode a TLS report's policy was applied with (the `mode:` line of an sts policy string). */
import { MTA_STS_MODES, type MtaStsMode } from '../../shared/email-auth/mtaStsPolicy.ts';
import type { TlsReportPolicy } from '../ingest/index.ts';

/**
 * The mode of an sts policy, read leniently from its policy string (the receiver's copy of the policy may be
 * imperfect elsewhere); null for tlsa / no-policy-found or when no valid mode line is present.
 */
export function tlsPolicyMode(policy: TlsReportPolicy['policy']): MtaStsMode | null {
  if (policy.policy_type !== 'sts') return null;
  for (const line of policy.policy_string) {
    const match = /^\s*mode\s*:\s*(\S+)\s*$/i.exec(line);
    const mode = match?.[1]?.toLowerCase();
    if (mode && (MTA_STS_MODES as readonly string[]).includes(mode)) return mode as MtaStsMode;
  }
  return null;
}

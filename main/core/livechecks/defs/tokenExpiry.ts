import { z } from 'zod';
import type { AlertEvent, RaiseEvent, RuleContext } from '../../alerts/types.ts';
import { tokenExpiryRecords } from '../../accounts/tokenExpiryRecord.ts';
import { expiryStage, expiryWords, stageEpisodeEvents, stageKey } from '../expiryStage.ts';
import { liveCheck, type LiveReading } from '../definition.ts';

/** Warnings 14 and 3 days before a token expires; critical once it has (polling stops then). */
const THRESHOLD_DAYS = [14, 3] as const;

const resultSchema = z.object({
  /** null: the token does not expire. */
  expiresAt: z.string().nullable(),
  tokenName: z.string().nullable(),
  /** The stage at the check's time: '14d', '3d', 'expired', or null while none is reached. */
  stage: z.string().nullable(),
  /** The expiry in words at the check's time ("expires in 12 days"). */
  when: z.string().nullable(),
});
type TokenExpiry = z.infer<typeof resultSchema>;
type Reading = LiveReading<TokenExpiry> | null;

const prefixOf = (ctx: RuleContext) => `token_expiry:${ctx.accountId}:`;

/** One episode per stage (each notifies once); the next stage, or a new token, ends the one before. */
function expiryEvents(_before: Reading, after: Reading, ctx: RuleContext): AlertEvent[] {
  const r = after?.result ?? null;
  return stageEpisodeEvents(ctx.openAlerts, prefixOf(ctx), r?.stage ?? null, (key) => raise(r!, key, ctx));
}

function raise(r: TokenExpiry, key: string, ctx: RuleContext): RaiseEvent {
  const expired = r.stage === 'expired';
  const name = r.tokenName ? `“${r.tokenName}” ` : '';
  return {
    type: 'raise',
    rule: expired ? 'token_expired' : 'token_expiring',
    severity: expired ? 'critical' : 'warning',
    dedupeKey: key,
    domain: null,
    title: `API token ${name}of ${ctx.accountLabel} ${r.when ?? ''}`.trim(),
    body: expired
      ? `The API token ${name}of ${ctx.accountLabel} expired on ${r.expiresAt?.slice(0, 10)}: Authwatch can no longer read the account, so nothing it watches is up to date. Create a token and replace it in Settings → Accounts.`
      : `The API token ${name}of ${ctx.accountLabel} ${r.when} (${r.expiresAt?.slice(0, 10)}). When it does, polling stops. Create a token and replace it in Settings → Accounts before then.`,
    details: { expiresAt: r.expiresAt ?? '', stage: r.stage ?? '' },
  };
}

const details = z.strictObject({ expiresAt: z.string(), stage: z.string() });

/**
 * The API token's expiry, per account, as GET /auth/me said when the token was added, tested or replaced
 * (accounts/tokenExpiryRecord.ts): judged against the clock hourly, with no request and no network.
 */
export default liveCheck('token_expiry', {
  words: 'When the API token expires',
  per: 'account',
  cadence: { periodSeconds: 3600, retrySeconds: 3600 },
  caps: { concurrency: 8, perTick: 50 },
  settingsKey: 'tokenExpiry',
  uses: [],
  result: resultSchema,
  async probe(ctx) {
    const record = tokenExpiryRecords((k) => ctx.mirror.getSetting(k))[String(ctx.target.accountId)];
    if (!record)
      return { status: 'not_applicable', words: 'the token has not been checked since this version' };
    const stage = expiryStage(record.expiresAt, ctx.now(), THRESHOLD_DAYS);
    return {
      status: 'checked',
      result: {
        expiresAt: record.expiresAt,
        tokenName: record.tokenName,
        stage: stage ? stageKey(stage) : null,
        when: record.expiresAt ? expiryWords(record.expiresAt, ctx.now()) : null,
      },
    };
  },
  rules: {
    tokenExpiry: {
      alerts: {
        token_expiring: {
          label: 'API token expiring',
          description:
            'The account’s API token expires within 14 or 3 days; ends when a new token is in place.',
          severity: 'warning',
          details,
          words: 'API token expiring',
        },
        token_expired: {
          label: 'API token expired',
          description:
            'The account’s API token has expired, so polling stops; ends when a new token is in place.',
          severity: 'critical',
          details,
          words: 'API token expired',
        },
      },
      run: expiryEvents,
    },
  },
  shown: {
    label: 'API token',
    text: (r) => (r.expiresAt ? `${r.when} (${r.expiresAt.slice(0, 10)})` : 'does not expire'),
    problems: (r) => (r.stage ? [`the API token ${r.when} (${r.expiresAt?.slice(0, 10)})`] : []),
  },
});

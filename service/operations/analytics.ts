/**
 * Health and security score of a domain (S3a): GET /domains/{id}/health, /health/history,
 * /security-score and /security-score/history, all read from guard scans (service/scan/).
 * The mail analytics operations of the same document tag (mail volume, sending services, failed sources,
 * dashboard cache) live in ./mailAnalytics.ts.
 */
import type { OperationHandlers } from '../http/operation.ts';
import { ServiceError } from '../http/serviceError.ts';
import { pageParams, paginated } from '../http/pagination.ts';
import { dateWindow } from '../http/dateWindow.ts';
import { PROTOCOLS } from '../../shared/email-auth/protocols.ts';
import { requireAuth } from '../http/requireAuth.ts';
import { requireVisibleDomain } from '../domainOps/domainStore.ts';
import { domainHealth, hasLiveFlags, verificationFlags } from '../scan/domainHealth.ts';
import { latestSnapshot, passFlags, type HealthSnapshotRow } from '../scan/scanStore.ts';
import {
  derivedScore,
  interpretScore,
  MAX_SCORE,
  scoreMessage,
  TOTAL_PROTOCOLS,
} from '../scan/securityScore.ts';

const WINDOW_ROWS = `FROM health_snapshots
  WHERE domain_id = @domainId AND scanned_at >= @from AND scanned_at < @to`;

const HISTORY_NOTE =
  'derived_score = protocols_passing / 5 x 10 for each guard scan in the window, newest first.';

export const handlers: OperationHandlers = {
  getHealthSnapshot: async (req, ctx) => {
    const domain = requireVisibleDomain(ctx.db, requireAuth(req), req.params.domain_id);
    return { data: { domain_id: domain.id, fqdn: domain.fqdn, ...(await domainHealth(ctx, domain)) } };
  },

  listHealthHistory: (req, ctx) => {
    const domain = requireVisibleDomain(ctx.db, requireAuth(req), req.params.domain_id);
    const window = dateWindow(req.query, ctx.clock);
    const page = pageParams(req.query);
    const args = { domainId: domain.id, from: window.fromTimestamp, to: window.toTimestamp };
    const total = ctx.db
      .prepare<typeof args, { n: number }>(`SELECT count(*) AS n ${WINDOW_ROWS}`)
      .get(args)!.n;
    const rows = ctx.db
      .prepare<typeof args & { limit: number; offset: number }, HealthSnapshotRow>(
        `SELECT * ${WINDOW_ROWS} ORDER BY scanned_at DESC, id DESC LIMIT @limit OFFSET @offset`,
      )
      .all({ ...args, limit: page.limit, offset: page.offset });
    return paginated(
      total,
      rows.map((r) => ({
        id: r.id,
        result: r.result,
        mail_provider: r.mail_provider,
        protocols: passFlags(r),
        protocols_passing: r.protocols_passing,
        total_protocols: TOTAL_PROTOCOLS,
        scanned_at: r.scanned_at,
      })),
      page,
    );
  },

  getSecurityScore: (req, ctx) => {
    const domain = requireVisibleDomain(ctx.db, requireAuth(req), req.params.domain_id);
    const latest = latestSnapshot(ctx.db, domain.id);
    let passing;
    let computedAt: string;
    if (latest) {
      passing = passFlags(latest);
      computedAt = latest.scanned_at;
    } else if (hasLiveFlags(domain)) {
      passing = verificationFlags(domain);
      computedAt = domain.verified_at ?? ctx.clock().toISOString();
    } else {
      throw new ServiceError(
        503,
        'score_unavailable',
        'The security score cannot be computed: the domain has never been scanned or verified.',
      );
    }
    const score = derivedScore(PROTOCOLS.filter((p) => passing[p]).length);
    return {
      data: {
        domain_id: domain.id,
        fqdn: domain.fqdn,
        score,
        max_score: MAX_SCORE,
        interpretation: interpretScore(score),
        message: scoreMessage(passing),
        computed_at: computedAt,
      },
    };
  },

  getSecurityScoreHistory: (req, ctx) => {
    const domain = requireVisibleDomain(ctx.db, requireAuth(req), req.params.domain_id);
    const window = dateWindow(req.query, ctx.clock);
    const { limit } = pageParams(req.query, 10);
    const rows = ctx.db
      .prepare<{ domainId: number; from: string; to: string; limit: number }, HealthSnapshotRow>(
        `SELECT * ${WINDOW_ROWS} ORDER BY scanned_at DESC, id DESC LIMIT @limit`,
      )
      .all({ domainId: domain.id, from: window.fromTimestamp, to: window.toTimestamp, limit });
    return {
      data: {
        domain_id: domain.id,
        fqdn: domain.fqdn,
        max_score: MAX_SCORE,
        note: HISTORY_NOTE,
        history: rows.map((r) => ({
          derived_score: derivedScore(r.protocols_passing),
          protocols_passing: r.protocols_passing,
          total_protocols: TOTAL_PROTOCOLS,
          result: r.result,
          scanned_at: r.scanned_at,
        })),
      },
    };
  },
};

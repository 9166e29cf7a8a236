import type { Database } from 'better-sqlite3';
import type { AlertFacts, AlertMatchers } from '../alerts/matchers.ts';
import { matchesAlert } from '../alerts/matchers.ts';
import {
  checkSilenceInput,
  type Silence,
  type SilenceInput,
  type SilenceOrigin,
} from '../alerts/silences.ts';
import { MirrorError } from './mirrorError.ts';
import type { Alert } from './types.ts';
import { prepared } from '../../../shared/sqlite/preparedStatements.ts';

interface SilenceRow {
  id: number;
  matchers_json: string;
  reason: string;
  author: string;
  starts_at: string;
  ends_at: string;
  created_at: string;
  expired_at: string | null;
  expired_by: string | null;
  origin_json: string | null;
}

function toSilence(r: SilenceRow): Silence {
  return {
    id: r.id,
    matchers: JSON.parse(r.matchers_json) as AlertMatchers,
    reason: r.reason,
    author: r.author,
    startsAt: r.starts_at,
    endsAt: r.ends_at,
    createdAt: r.created_at,
    expiredAt: r.expired_at,
    expiredBy: r.expired_by,
    origin: r.origin_json === null ? null : (JSON.parse(r.origin_json) as SilenceOrigin),
  };
}

/** What holds an alert back at a moment: a silence, or (later) an open maintenance window acting as one. */
export interface ActiveHold {
  kind: 'silence' | 'maintenance';
  id: number;
  /** The silence's reason, or the window's name. */
  label: string;
  author: string;
  matchers: AlertMatchers;
  /** When this hold ends (the window's current opening ends). */
  endsAt: string;
}

/** Something else that holds alerts like a silence while it is open (maintenance windows). */
export type HoldSource = (now: string) => ActiveHold[];

/** One entry of the lifecycle's audit: who changed a silence, a route, an acknowledgement, when. */
export interface LifecycleAuditEntry {
  id: number;
  at: string;
  actor: string;
  action: string;
  subject: string;
  details: Record<string, unknown>;
}

/** Silences, the alerts they hold back, and the lifecycle's audit, in the mirror (migration v16). */
export class SilenceStore {
  private readonly sources: HoldSource[] = [];

  constructor(private readonly db: Database) {}

  /** Adds what else holds alerts while open (maintenance windows). */
  addHoldSource(source: HoldSource): void {
    this.sources.push(source);
  }

  list(): Silence[] {
    return (
      prepared(this.db, 'SELECT * FROM silences ORDER BY ends_at DESC, id DESC').all() as SilenceRow[]
    ).map(toSilence);
  }

  get(id: number): Silence | null {
    const row = prepared(this.db, 'SELECT * FROM silences WHERE id = ?').get(id) as SilenceRow | undefined;
    return row ? toSilence(row) : null;
  }

  /**
   * Creates a silence (checked: a reason, a matcher, an end after its start); audited. `origin` names the
   * edit that opened it, when one did.
   */
  add(input: SilenceInput, author: string, at: string, origin: SilenceOrigin | null = null): Silence {
    const s = checkSilenceInput(input);
    const id = this.db.transaction(() => {
      const id = Number(
        prepared(
          this.db,
          `INSERT INTO silences (matchers_json, reason, author, starts_at, ends_at, created_at, origin_json)
             VALUES (?, ?, ?, ?, ?, ?, ?)`,
        ).run(
          JSON.stringify(s.matchers),
          s.reason,
          author,
          s.startsAt,
          s.endsAt,
          at,
          origin === null ? null : JSON.stringify(origin),
        ).lastInsertRowid,
      );
      this.audit(at, author, 'silence.created', `silence ${id}`, { ...s, ...(origin ? { origin } : {}) });
      return id;
    })();
    return this.get(id)!;
  }

  /** Changes a silence's matchers, reason or times (an expired one cannot be brought back); audited. */
  edit(id: number, input: SilenceInput, actor: string, at: string): Silence {
    const s = checkSilenceInput(input);
    return this.db.transaction(() => {
      const before = this.get(id);
      if (!before) throw new MirrorError('invalid_input', `No silence ${id}.`);
      if (before.endsAt <= at) throw new MirrorError('invalid_input', `Silence ${id} has already ended.`);
      prepared(
        this.db,
        'UPDATE silences SET matchers_json = ?, reason = ?, starts_at = ?, ends_at = ? WHERE id = ?',
      ).run(JSON.stringify(s.matchers), s.reason, s.startsAt, s.endsAt, id);
      this.audit(at, actor, 'silence.edited', `silence ${id}`, { before, after: s });
      return this.get(id)!;
    })();
  }

  /** Ends a silence now (what it held and is still open is notified at the next release); audited. */
  expire(id: number, actor: string, at: string): Silence {
    return this.db.transaction(() => {
      const s = this.get(id);
      if (!s) throw new MirrorError('invalid_input', `No silence ${id}.`);
      if (s.endsAt <= at) return s;
      prepared(
        this.db,
        `UPDATE silences SET ends_at = ?, starts_at = min(starts_at, ?), expired_at = ?, expired_by = ?
           WHERE id = ?`,
      ).run(at, at, at, actor, id);
      this.audit(at, actor, 'silence.expired', `silence ${id}`, { reason: s.reason });
      return this.get(id)!;
    })();
  }

  /** Every silence and open window holding alerts at `now`. */
  activeAt(now: string): ActiveHold[] {
    const silences = (
      prepared(
        this.db,
        'SELECT * FROM silences WHERE ends_at > ? AND starts_at <= ? ORDER BY ends_at DESC',
      ).all(now, now) as SilenceRow[]
    ).map(toSilence);
    return [
      ...silences.map((s) => ({
        kind: 'silence' as const,
        id: s.id,
        label: s.reason,
        author: s.author,
        matchers: s.matchers,
        endsAt: s.endsAt,
      })),
      ...this.sources.flatMap((source) => source(now)),
    ];
  }

  /** What an alert reads to matchers: its domain's group comes from the domain's stored row. */
  factsOf(alert: Alert): AlertFacts {
    let group: string | null = null;
    if (alert.domainId !== null) {
      const row = prepared(
        this.db,
        `SELECT raw_json ->> '$.group_name' AS g FROM domains WHERE account_id = ? AND remote_id = ?`,
      ).get(alert.accountId, alert.domainId) as { g: unknown } | undefined;
      group = typeof row?.g === 'string' ? row.g : null;
    }
    const protocol = alert.details.protocol;
    // Only the alert about a failing channel names a channelId in its details (channel_failing).
    const channelId = alert.details.channelId;
    return {
      accountId: alert.accountId,
      group,
      domain: alert.fqdn,
      protocol: typeof protocol === 'string' ? protocol : null,
      rule: alert.rule,
      severity: alert.severity,
      aboutChannelId: typeof channelId === 'number' ? channelId : null,
    };
  }

  /** The hold that silences this alert at `now` (the one ending last), or null. */
  silencing(alert: Alert, now: string, active = this.activeAt(now)): ActiveHold | null {
    if (active.length === 0) return null;
    const facts = this.factsOf(alert);
    let found: ActiveHold | null = null;
    for (const hold of active)
      if (matchesAlert(hold.matchers, facts) && (!found || hold.endsAt > found.endsAt)) found = hold;
    return found;
  }

  /**
   * Inside the alert write's transaction: the new alerts a silence matches are recorded as held (notified
   * when the silence ends, if still open) and left out of what is sent now.
   */
  holdSilenced(alerts: Alert[], at: string): Alert[] {
    const active = this.activeAt(at);
    if (active.length === 0) return alerts;
    const hold = prepared(this.db, 'INSERT OR IGNORE INTO silence_holds (alert_id, held_at) VALUES (?, ?)');
    return alerts.filter((alert) => {
      if (!this.silencing(alert, at, active)) return true;
      hold.run(alert.id, at);
      return false;
    });
  }

  /** True when a silence held this alert back and has not released it yet. */
  isHeld(alertId: number): boolean {
    return prepared(this.db, 'SELECT 1 FROM silence_holds WHERE alert_id = ?').get(alertId) !== undefined;
  }

  /**
   * In the caller's transaction: the held alerts no silence holds any longer. Those still open and not
   * acknowledged are returned (to notify now, once: their hold row goes in the same transaction as their
   * outbox rows); the others are let go without a word.
   */
  release(now: string, get: (id: number) => Alert | null): Alert[] {
    const ids = (
      prepared(this.db, 'SELECT alert_id FROM silence_holds ORDER BY alert_id').all() as {
        alert_id: number;
      }[]
    ).map((r) => r.alert_id);
    if (ids.length === 0) return [];
    const active = this.activeAt(now);
    const drop = prepared(this.db, 'DELETE FROM silence_holds WHERE alert_id = ?');
    const released: Alert[] = [];
    for (const id of ids) {
      const alert = get(id);
      if (alert && alert.resolvedAt === null && alert.acknowledgedAt === null) {
        if (this.silencing(alert, now, active)) continue;
        released.push(alert);
      }
      drop.run(id);
    }
    return released;
  }

  /** Records who did what to the lifecycle (silences, acknowledgements, routes). */
  audit(at: string, actor: string, action: string, subject: string, details: Record<string, unknown>): void {
    prepared(
      this.db,
      'INSERT INTO lifecycle_audit (at, actor, action, subject, details_json) VALUES (?, ?, ?, ?, ?)',
    ).run(at, actor, action, subject, JSON.stringify(details));
  }

  /** The audit, newest first. */
  auditLog(limit = 200): LifecycleAuditEntry[] {
    return (
      prepared(this.db, 'SELECT * FROM lifecycle_audit ORDER BY id DESC LIMIT ?').all(limit) as {
        id: number;
        at: string;
        actor: string;
        action: string;
        subject: string;
        details_json: string;
      }[]
    ).map((r) => ({
      id: r.id,
      at: r.at,
      actor: r.actor,
      action: r.action,
      subject: r.subject,
      details: JSON.parse(r.details_json) as Record<string, unknown>,
    }));
  }
}

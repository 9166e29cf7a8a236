import { z } from 'zod';
import { integer, timestamp } from './primitives.ts';

/** The `security_score` signal: GET /domains/{domain_id}/security-score. */
export const securityScoreSchema = z.looseObject({
  domain_id: integer.optional(),
  fqdn: z.string().optional(),
  score: z.number(),
  max_score: z.number().optional(),
  interpretation: z.string().nullish(),
  message: z.string().nullish(),
  computed_at: timestamp.nullish(),
});

/** One point of the derived score history (derived_score = protocols_passing / 5 × 10). */
export const scoreHistoryPointSchema = z.looseObject({
  derived_score: z.number(),
  protocols_passing: integer.optional(),
  total_protocols: integer.optional(),
  result: z.string().nullish(),
  scanned_at: timestamp,
});

/** The `score_history` signal: GET /domains/{domain_id}/security-score/history. */
export const scoreHistorySchema = z.looseObject({
  domain_id: integer.optional(),
  fqdn: z.string().optional(),
  max_score: z.number().optional(),
  note: z.string().nullish(),
  history: z.array(scoreHistoryPointSchema),
});

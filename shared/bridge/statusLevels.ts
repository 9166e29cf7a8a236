/**
 * The status model's fixed lists, apart from the result schemas (./results.ts builds its enums from them):
 * the renderer's first screen sorts and counts by them without loading zod, which only main needs to check
 * answers.
 */

/** The four states a protocol can be in. */
export const PROTOCOL_STATES = ['passing', 'failing', 'not_set_up', 'unknown'] as const;
export type ProtocolState = (typeof PROTOCOL_STATES)[number];

/** How bad the worst true thing about a domain is, from worst to best (sorting, counting). */
export const VERDICT_LEVELS = ['problem', 'warning', 'unknown', 'good'] as const;
export type VerdictLevel = (typeof VERDICT_LEVELS)[number];

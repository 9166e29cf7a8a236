import { z } from 'zod';
import { alertRule } from './args.ts';
import { severity } from './results.ts';

/**
 * One alert the rules raise, in words for people: the inbox's rule filter and each alert's details read these.
 * Served by main from the rule files themselves (main/core/alerts/rules: each says its name, label, sentence
 * and severity) rather than kept here as a list: the renderer cannot import main/core, and a list in shared
 * would be one more file to touch for every new rule.
 */
export const alertRuleInfoSchema = z.object({
  name: alertRule,
  label: z.string(),
  description: z.string(),
  severity,
});
export type AlertRuleInfo = z.infer<typeof alertRuleInfoSchema>;

/**
 * Every live check, by name: one file each under ./defs (./checkFiles.ts loads the folder), checked here so a
 * file that does not declare a whole check fails every start and every test that reads the registry, naming
 * the file. Their rules join the alert rule registry in ./ruleRegistry.ts (liveCheckRules), which is passed down.
 */
import type { RuleDefinition } from '../alerts/ruleDefinition.ts';
import type { AnyRuleFn } from '../alerts/ruleDefinition.ts';
import { definitionFileName, type DefinitionFile } from '../signals/definitionFolder.ts';
import { LIVE_CHECK_FILES } from './checkFiles.ts';
import { isLiveCheck, type LiveCheckDefinition } from './definition.ts';

/** The check a file of ./defs declares, or an error naming the file and what it lacks. */
export function registeredLiveCheck({ file, exports }: DefinitionFile): LiveCheckDefinition {
  const where = `live check file main/core/livechecks/defs/${file}`;
  const d = exports.default;
  if (!isLiveCheck(d)) {
    throw new Error(`${where} does not declare its check (\`export default liveCheck('<name>', {...})\`)`);
  }
  const problem =
    definitionFileName(d.name) !== file
      ? `declares check ${d.name}: its file must be ${definitionFileName(d.name)}`
      : typeof d.probe !== 'function'
        ? 'has no probe'
        : typeof d.result?.safeParse !== 'function'
          ? 'has no result schema'
          : typeof d.words !== 'string' || typeof d.shown?.text !== 'function'
            ? 'has no words for people (`words`, `shown`)'
            : !(d.cadence?.periodSeconds > 0 && d.cadence.retrySeconds > 0)
              ? 'has no cadence'
              : !(d.caps?.concurrency >= 1 && d.caps.perTick >= 1)
                ? 'has no caps'
                : !/^[a-z][A-Za-z0-9]*$/.test(d.settingsKey ?? '')
                  ? 'has no camelCase settingsKey'
                  : null;
  if (problem) throw new Error(`${where} ${problem}`);
  return d;
}

/** Every live check, by name (file order). */
export const LIVE_CHECKS: Readonly<Record<string, LiveCheckDefinition>> = Object.fromEntries(
  LIVE_CHECK_FILES.map(registeredLiveCheck).map((d) => [d.name, d]),
);

/**
 * The rules the checks carry, as the alert rule registry holds them (`liveCheck`: the check whose writes run
 * it). An id another rule already has is refused: two rules would answer to it.
 */
export function liveCheckRules(
  checks: Readonly<Record<string, LiveCheckDefinition>>,
  takenIds: ReadonlySet<string>,
): [string, RuleDefinition][] {
  return Object.values(checks).flatMap((check) =>
    Object.entries(check.rules ?? {}).map(([id, rule]): [string, RuleDefinition] => {
      if (takenIds.has(id) || !/^[a-z][A-Za-z0-9]*$/.test(id)) {
        throw new Error(
          `alert rule ${id} of live check ${check.name} (main/core/livechecks/defs/) ${takenIds.has(id) ? 'has the id of another rule' : 'must be named in camelCase'}`,
        );
      }
      return [id, { alerts: rule.alerts, run: rule.run as AnyRuleFn, liveCheck: check.name }];
    }),
  );
}

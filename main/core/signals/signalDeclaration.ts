/**
 * How a file of ./defs declares its signal: it adds its definition's type to `SignalRegistry` under the
 * signal's name and exports `declareSignal(name, definition)` as its default. The registry (./registry.ts) is
 * the folder — writing the file registers the signal — and the types are this interface, so a rule reading a
 * signal is still checked against that signal's own payload and rule state (alerts/ruleDefinition.ts).
 *
 * This module has no runtime dependency on the registry: the files it declares are loaded by it.
 */

/**
 * Every polled signal's definition type, by name. Empty here: each file of ./defs adds its own entry —
 *
 *   declare module '../signalDeclaration.ts' {
 *     interface SignalRegistry { mta_sts: typeof mtaSts }
 *   }
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface SignalRegistry {}

/** Name of a polled signal: a key of the registry. */
export type SignalName = keyof SignalRegistry & string;

const DECLARED = Symbol('authwatch.signal');

/** What a signal file exports as its default. */
export interface SignalDeclaration {
  readonly [DECLARED]: true;
  readonly name: string;
  readonly definition: unknown;
}

/**
 * A signal file's default export. The name must be a key the file added to `SignalRegistry` with this very
 * definition's type: a file that forgets to add itself is a type error here, and one that does not export
 * this is refused when the registry loads (naming the file).
 */
export function declareSignal<const N extends SignalName>(
  name: N,
  definition: SignalRegistry[N],
): SignalDeclaration {
  return { [DECLARED]: true, name, definition };
}

/** True when `value` was made by declareSignal(). */
export function isSignalDeclaration(value: unknown): value is SignalDeclaration {
  return (
    typeof value === 'object' && value !== null && (value as Partial<SignalDeclaration>)[DECLARED] === true
  );
}

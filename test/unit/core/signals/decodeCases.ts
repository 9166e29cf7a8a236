import fc from 'fast-check';
import { expect, it } from 'vitest';
import type { SignalName, SignalPayloads } from '../../../../main/core/signals/catalog.ts';
import { decodeSignal } from '../../../../main/core/signals/decode.ts';

const EXTRA_KEY = fc.string({ minLength: 1, maxLength: 12 }).map((k) => `x_${k}`);
const EXTRA_FIELDS = fc.dictionary(EXTRA_KEY, fc.jsonValue(), { minKeys: 1, maxKeys: 4 });

/** Add extra fields at the root (objects) or to every item (arrays): where a newer server would add them. */
function withExtras(sample: unknown, extra: Record<string, unknown>): unknown {
  if (Array.isArray(sample)) return sample.map((item) => ({ ...(item as object), ...extra }));
  return { ...(sample as object), ...extra };
}

/**
 * The decode cases every signal's own test runs (inside its describe): a realistic answer decodes to itself,
 * fields the interface does not name are kept, and a named field of the wrong type (`wrong`: the payload and
 * the path the error must point at) is a typed decode error pointing at it.
 */
export function decodeCases<S extends SignalName>(
  name: S,
  sample: SignalPayloads[S],
  wrong: [payload: unknown, path: string],
): void {
  it('decodes a payload shaped as the interface describes to itself', () => {
    expect(decodeSignal(name, sample)).toEqual({ ok: true, value: sample });
  });

  it('keeps fields the interface does not name, whatever they hold', () => {
    fc.assert(
      fc.property(EXTRA_FIELDS, (extra) => {
        const payload = withExtras(sample, extra);
        const result = decodeSignal(name, payload);
        expect(result.ok).toBe(true);
        if (result.ok) expect(result.value).toEqual(payload);
      }),
      { numRuns: 40 },
    );
  });

  it('turns a named field of the wrong type into a typed decode error pointing at it', () => {
    const [payload, path] = wrong;
    const result = decodeSignal(name, payload);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe('malformed_response');
      expect(result.error.issues.map((i) => i.path)).toContain(path);
      expect(result.error.message).toContain(`${name}: ${path}`);
    }
  });
}

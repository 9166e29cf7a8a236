import { expect } from 'vitest';

/**
 * What `call` rejects with, checked to be a `type` — the test fails when the call resolves or rejects with
 * anything else. The facade's and the API client's tests read their errors through it.
 */
export async function rejection<E>(
  call: Promise<unknown>,
  type: abstract new (...args: never[]) => E,
): Promise<E> {
  const error = await call.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error, 'the call was expected to fail').toBeInstanceOf(type);
  return error as E;
}

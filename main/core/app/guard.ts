import type { z } from 'zod';
import { AuthwatchError, toAuthwatchError } from './authwatchError.ts';

/** Validates facade arguments; a failure names each bad field without echoing values. */
export function parse<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) => ({
    path: issue.path.map(String).join('.') || '(arguments)',
    message: issue.message,
  }));
  const first = issues[0];
  throw new AuthwatchError(
    'invalid_arguments',
    first ? `${first.path}: ${first.message}` : 'invalid arguments',
    issues,
  );
}

/** Runs a facade method body, turning every failure into an AuthwatchError. */
export async function guard<T>(run: () => T | Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw toAuthwatchError(error);
  }
}

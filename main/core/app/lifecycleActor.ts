import { userInfo } from 'node:os';
import type { Wiring } from './wiring.ts';

/**
 * Who a silence, an acknowledgement or a route change is recorded as: the shell's own answer when it has
 * one (the token's user), else the person logged in to this machine (the command line on a server).
 */
export function lifecycleActor(w: Pick<Wiring, 'options'>): string {
  const given = w.options.actor?.();
  if (given && given.trim()) return given.trim();
  try {
    return userInfo().username || 'unknown user';
  } catch {
    return process.env.USER ?? process.env.USERNAME ?? 'unknown user';
  }
}

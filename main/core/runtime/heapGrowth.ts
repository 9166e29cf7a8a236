import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the heap grow past what the last full GC kept before it collects again, in percent.
 *
 * The engine keeps ~31 MiB live at 1,000 domains but allocates ~9 GiB a simulated day (API answers read and
 * parsed, jobs re-made, mirror rows read and written): almost all of it dies within a tick. Left to itself,
 * V8 sizes the old generation from how fast the process allocates (a dynamic factor up to 4×) and let the
 * simulated week's heap reach 190–280 MiB of garbage before a full GC, whose freed pages then stay mapped
 * for a while: 255–360 MiB of RSS after GC, 310–412 at the peaks (README, "Where the engine's RSS went").
 * Collecting once the heap is 20 % over the live set held the same runs at 155–171 MiB after GC and 172–178
 * at the peaks for the same CPU. A growth factor, not a ceiling: a larger portfolio's heap grows with its
 * live set, and each collection costs what is live, so the CPU follows what is allocated, not the heap size.
 */
export const HEAP_GROWING_PERCENT = 20;

/**
 * Sets the growth factor for this process. V8 reads it at every full GC, so setting it once the process
 * runs (the shells open the runtime first thing) holds from the next collection on; the flag reaches users
 * of the CLI, the server and the desktop app alike, where a command-line flag would not.
 */
export function limitHeapGrowth(setFlags: (flags: string) => void = setFlagsFromString): void {
  setFlags(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}

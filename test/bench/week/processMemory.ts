/**
 * Where a process's RSS goes, read from inside it: V8's heap (committed vs used, per space), memory V8 tracks
 * outside it (buffers), and the kernel's split of the RSS into file-backed pages (the node binary's code,
 * shared libraries, mapped files) and anonymous ones (V8's heap, malloc — SQLite's page cache among it —
 * thread stacks). What is anonymous but neither V8's heap nor its buffers is native: malloc and stacks.
 */
import { readFileSync } from 'node:fs';
import { getHeapSpaceStatistics } from 'node:v8';

const MiB = 1024 * 1024;

/** A process's memory in MiB. */
export interface MemoryDetail {
  rss: number;
  /** V8's heap: committed (heapTotal) and live (heapUsed). */
  heapTotal: number;
  heapUsed: number;
  /** Committed per space: the young generation (new), old objects, code, large objects. */
  spaces: { new: number; old: number; code: number; large: number };
  external: number;
  arrayBuffers: number;
  /** The RSS's anonymous pages and the rest (file-backed), from /proc/self/smaps_rollup (Linux only). */
  anonymous: number | null;
  fileBacked: number | null;
  /** Anonymous pages V8 does not account for: malloc'd memory (SQLite, ICU, OpenSSL...) and thread stacks. */
  native: number | null;
  threads: number | null;
}

const kB = (text: string, field: string): number | null => {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text);
  return match ? Number(match[1]) / 1024 : null;
};

const procFile = (path: string): string => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
};

/** This process's memory now (call after a GC for the live figures). */
export function memoryDetail(): MemoryDetail {
  const usage = process.memoryUsage();
  const space = (name: string) =>
    getHeapSpaceStatistics()
      .filter((s) => s.space_name === name)
      .reduce((sum, s) => sum + s.space_size / MiB, 0);
  const rollup = procFile('/proc/self/smaps_rollup');
  const anonymous = kB(rollup, 'Anonymous');
  const rss = kB(rollup, 'Rss');
  const heapTotal = usage.heapTotal / MiB;
  const threads = /^Threads:\s+(\d+)/m.exec(procFile('/proc/self/status'));
  return {
    rss: usage.rss / MiB,
    heapTotal,
    heapUsed: usage.heapUsed / MiB,
    spaces: {
      new: space('new_space'),
      old: space('old_space'),
      code: space('code_space'),
      large: space('large_object_space') + space('new_large_object_space') + space('code_large_object_space'),
    },
    external: usage.external / MiB,
    arrayBuffers: usage.arrayBuffers / MiB,
    anonymous,
    fileBacked: rss !== null && anonymous !== null ? rss - anonymous : null,
    native: anonymous !== null ? anonymous - heapTotal - usage.arrayBuffers / MiB : null,
    threads: threads ? Number(threads[1]) : null,
  };
}

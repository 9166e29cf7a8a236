/**
 * `npm run record:answer -- SIGNAL [--domain FQDN] [--as CASE]`: records what the reference service answers
 * for a signal, as a fixture its tests read.
 *
 * Starts the reference service (service/cli.ts) with its seeded demo portfolio on a free loopback port, calls
 * the signal's path(s) exactly as the fetcher does (main/core/sync/signalFetcher.ts, fetchAnswer: every page,
 * each part by its key, null for a 404 the definition declares absent), checks the answer decodes, and writes
 * it under CASE (default: the domain's name) into test/fixtures/answers/<signal file>.json — e.g. mtaSts.json
 * for mta_sts — keeping the file's other cases. The first case of each file is what the tests' fake services
 * answer for the signal (test/support/recordedAnswers.ts); the registry test wants one file per signal.
 *
 * Without --domain the first domain of the demo list is used; the domain list itself (`domains`) needs none.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { format, resolveConfig } from 'prettier';
import { createApiClient } from '../shared/api/client.ts';
import {
  decodeSignal,
  fetchAnswer,
  isSignalName,
  SIGNAL_NAMES,
  SIGNALS,
  signalFileName,
  type LooseApi,
} from '../main/core/index.ts';
import { baseUrlLine, spawnDemoService } from './demoService.ts';

const root = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
const USAGE = 'usage: npm run record:answer -- SIGNAL [--domain FQDN] [--as CASE]';

/** Starts the reference service with the demo data on a free port; resolves with its base URL. */
async function startService(token: string): Promise<{ child: ChildProcess; baseUrl: string }> {
  const sandboxKey = randomBytes(18).toString('base64url');
  const { child, found } = await spawnDemoService(root, { port: 0, token, sandboxKey }, baseUrlLine);
  return { child, baseUrl: found };
}

/** The domain to record: the one named, else the first of the list. */
async function pickDomain(api: LooseApi, fqdn: string | undefined): Promise<{ id: number; fqdn: string }> {
  const domains: { id: number; fqdn: string }[] = [];
  for await (const row of api.paginate('/domains', {}, { limit: 100 })) {
    domains.push(row as { id: number; fqdn: string });
  }
  const domain = fqdn === undefined ? domains[0] : domains.find((d) => d.fqdn === fqdn);
  if (!domain) {
    throw new Error(
      `the demo portfolio has no domain ${fqdn ?? ''}; it has ${domains.map((d) => d.fqdn).join(', ')}`,
    );
  }
  return domain;
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    options: { domain: { type: 'string' }, as: { type: 'string' } },
    allowPositionals: true,
  });
  const signal = positionals[0];
  if (positionals.length !== 1 || !signal || !isSignalName(signal)) {
    throw new Error(`${USAGE}\nSIGNAL is one of: ${SIGNAL_NAMES.join(', ')}`);
  }
  const token = `awt_${randomBytes(30).toString('base64url')}`;
  const { child, baseUrl } = await startService(token);
  try {
    const api = createApiClient({ baseUrl, token }) as unknown as LooseApi;
    const domain = SIGNALS[signal].per === 'domain' ? await pickDomain(api, values.domain) : null;
    const subject = { domainId: domain?.id ?? null, fqdn: domain?.fqdn ?? null };
    const { data } = await fetchAnswer(signal, { api, ...subject, now: Date.now(), lastSeen: null });
    // A fixture that does not decode would only move the failure into the signal's tests.
    const decoded = decodeSignal(signal, data, subject);
    if (!decoded.ok) throw new Error(`the service's answer does not decode: ${decoded.error.message}`);

    const file = join(root, 'test', 'fixtures', 'answers', signalFileName(signal).replace(/\.ts$/, '.json'));
    const cases = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
    const name = values.as ?? domain?.fqdn ?? 'account';
    cases[name] = data;
    const text = await format(JSON.stringify(cases), {
      ...(await resolveConfig(file)),
      parser: 'json',
    });
    writeFileSync(file, text);
    process.stdout.write(
      `${relative(root, file)}: case "${name}" recorded (${signal}${domain ? ` of ${domain.fqdn}` : ''})\n`,
    );
  } finally {
    child.kill('SIGTERM');
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`record:answer: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

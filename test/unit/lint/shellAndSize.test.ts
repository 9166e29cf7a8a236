/**
 * Two house rules ESLint holds (eslint.config.js): the CLI reads through the facade, never the mirror, and no
 * renderer page or component is over 300 lines. Each case lints a small file at the place it would live.
 */
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));

describe('house rules ESLint holds', () => {
  let eslint: ESLint;
  beforeAll(() => {
    eslint = new ESLint({ cwd: root });
  });

  async function lint(file: string, code: string) {
    const [result] = await eslint.lintText(code, { filePath: `${root}${file}` });
    return { file: result?.filePath, messages: result?.messages ?? [] };
  }

  it('refuses main/cli reading runtime.mirror, and lets it read the facade', async () => {
    const bad = await lint(
      'main/cli/commands/probe.ts',
      'export function rows(runtime: { mirror: { overview(): unknown[] } }) {\n  return runtime.mirror.overview();\n}\n',
    );
    expect(bad.messages.map((m) => m.message)).toEqual([
      'main/cli uses the facade (runtime.app) only: add the read to main/core/app, not .mirror.',
    ]);
    const good = await lint(
      'main/cli/commands/probe.ts',
      'export function rows(app: { domainPostures(): unknown[] }) {\n  return app.domainPostures();\n}\n',
    );
    expect(good.messages).toEqual([]);
  });

  it('refuses a component over 300 lines, naming the file, and lets one of 300 pass', async () => {
    const component = (lines: number) =>
      '<script lang="ts">\n  let n = $state(0);\n</script>\n\n' +
      Array.from({ length: lines - 4 }, (_, i) => `<p>{n + ${i}}</p>`).join('\n') +
      '\n';
    const long = await lint('renderer/src/components/Probe.svelte', component(301));
    expect(long.file).toBe(`${root}renderer/src/components/Probe.svelte`);
    expect(long.messages.map((m) => `${m.ruleId}: ${m.message}`)).toEqual([
      'max-lines: File has too many lines (301). Maximum allowed is 300.',
    ]);
    expect((await lint('renderer/src/pages/Probe.svelte', component(300))).messages).toEqual([]);
  });
});

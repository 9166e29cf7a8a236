// Entry of the `authwatch` command (bin/authwatch.mjs, `npm run cli -- …`).
import { runCli } from './run.ts';

const interrupted = () =>
  new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });

process.exitCode = await runCli(process.argv.slice(2), {
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
  interrupted,
});

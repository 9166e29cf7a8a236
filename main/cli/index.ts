// Entry of the `authwatch` command (bin/authwatch.mjs, `npm run cli -- …`).
import { endOutputOnClosedPipe } from './closedPipe.ts';
import { runCli } from './run.ts';

const interrupted = () =>
  new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });

const stderr = endOutputOnClosedPipe(process.stderr, () => undefined);
const stdout = endOutputOnClosedPipe(process.stdout, (message) => stderr.write(message));

const status = await runCli(process.argv.slice(2), {
  env: process.env,
  stdout,
  stderr,
  interrupted,
});
// A write error other than a closed pipe has already set 1.
process.exitCode = Math.max(status, Number(process.exitCode ?? 0));

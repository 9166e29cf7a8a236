#!/usr/bin/env node
// The `authwatch` command: the bundle `npm run build:main` writes when it is up to date with the sources,
// else the TypeScript sources directly through tsx's loader, so an install needs no build step (the bundle
// saves the loader's 25–45 MiB of RSS for as long as the command runs: see cliEntry.mjs).
import { fileURLToPath, pathToFileURL } from 'node:url';
import { cliEntry } from './cliEntry.mjs';

const entry = cliEntry(fileURLToPath(new URL('..', import.meta.url)));
if (entry.kind === 'sources') {
  const { register } = await import('tsx/esm/api');
  register();
}
await import(pathToFileURL(entry.path).href);

#!/usr/bin/env node
// The `authwatch` command runs the TypeScript sources directly through tsx's loader, so an install
// needs no build step.
import { register } from 'tsx/esm/api';

register();
await import('../main/cli/index.ts');

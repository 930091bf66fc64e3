#!/usr/bin/env node
// Entry of the `obscura` command; the TypeScript sources are compiled to dist/ by `npm ci` (prepare).
import { main } from '../dist/main/cli/index.js';

process.exitCode = await main(process.argv.slice(2));

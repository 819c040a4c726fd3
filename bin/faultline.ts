#!/usr/bin/env node
// The entry point only; the CLI lives in src/cli/. Built into dist/faultline.mjs by `npm run build:cli`.
import { main } from "../src/cli/main.ts";

process.exitCode = await main(process.argv.slice(2));

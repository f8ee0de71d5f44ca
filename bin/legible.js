#!/usr/bin/env node
// The package's `bin`: runs the TypeScript CLI through tsx so `npx legible` works without a build step.
import { register } from 'tsx/esm/api';
register();
await import('../src/cli/main.ts');

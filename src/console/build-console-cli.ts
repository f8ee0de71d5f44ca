// `npm run build:console`: bundles the console ahead of time (e.g. while building a container image),
// so the first start does not have to. The server does the same on startup when the bundle is missing.
import { ensureConsoleBuilt } from './console-build.ts';

const dir = await ensureConsoleBuilt();
console.log(`console bundle: ${dir}`);

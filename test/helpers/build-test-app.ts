import type { TestContext } from 'node:test';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { loadConfig, type Env } from '../../src/config.ts';
import type { DatabaseHandle, Dialect } from '../../src/db/database.ts';
import { createTestDatabase } from './dialects.ts';

export interface TestApp {
  app: FastifyInstance;
  database: DatabaseHandle;
  /** Every route the app registered, as Fastify saw it (HEAD twins of GET routes included). */
  routes: RouteOptions[];
}

/** `buildApp` on a fresh migrated database of the given dialect; closed when the test ends. */
export async function buildTestApp(t: TestContext, dialect: Dialect = 'sqlite', env: Env = {}): Promise<TestApp> {
  const database = await createTestDatabase(dialect);
  const config = loadConfig({ LOG_LEVEL: 'silent', OCR_WORKERS: '1', ...env });
  const routes: RouteOptions[] = [];
  const app = await buildApp({ config, database, onRoute: (route) => routes.push(route) });
  t.after(async () => {
    await app.close();
    await database.destroy();
  });
  return { app, database, routes };
}

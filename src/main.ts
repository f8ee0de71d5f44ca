import closeWithGrace from 'close-with-grace';
import { buildApp } from './app.ts';
import { buildAdminApp } from './http/admin-app.ts';
import { loadConfig, type Env } from './config.ts';
import { createDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';

/** Starts the service on the configured store and port; resolves once it listens. */
export async function main(env: Env = process.env): Promise<void> {
  const config = loadConfig(env);
  const database = createDatabase(config.databaseUrl);
  await migrateToLatest(database.db);
  const app = await buildApp({ config, database });
  await app.ready();
  const admin = config.admin ? await buildAdminApp(app) : undefined;

  // SIGTERM: /readyz fails first (503 draining) while requests are still served for
  // SHUTDOWN_DRAIN_MS, then the server stops accepting and in-flight requests finish within
  // SHUTDOWN_GRACE_MS; exit 0 (1 if the grace ran out or after an uncaught error).
  closeWithGrace({ delay: config.shutdownDrainMs + config.shutdownGraceMs, logger: app.log }, async ({ signal, err }) => {
    app.drainState.start();
    if (err) app.log.error({ err }, 'shutting down after an uncaught error');
    else app.log.info({ signal, drainMs: config.shutdownDrainMs }, 'draining: /readyz answers 503, then in-flight requests finish');
    if (!err) await new Promise((resolve) => setTimeout(resolve, config.shutdownDrainMs));
    await app.close();
    await admin?.close();
    // After app.close(), not in an onClose hook: Fastify runs root onClose hooks last-registered-first,
    // so a hook added here would close the store before the app's own hooks (the key verifier's
    // lastUsedTime flush, the rate limiter, the cluster listener) ran.
    await database.destroy();
  });

  await app.listen({ port: config.port, host: config.host });
  if (admin && config.admin) await admin.listen({ port: config.admin.port, host: config.admin.host });
  // Models load per worker (~1.5 s and ~300 MB each): do it now, not inside the first requests.
  // A failure here is logged; each image then retries the load and answers INTERNAL if it fails.
  if (config.ocr.warm) {
    const started = performance.now();
    app.ocr.ready().then(
      () => app.log.info({ workers: config.ocr.workers, ms: Math.round(performance.now() - started) }, 'OCR models loaded'),
      (err: unknown) => app.log.error({ err }, 'OCR models could not be loaded'),
    );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}

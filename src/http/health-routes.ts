import { sql } from 'kysely';
import type { FastifyPluginAsync } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { DatabaseHandle } from '../db/database.ts';
import { AppError } from '../errors.ts';

const Status = Type.Object({ status: Type.String() });

/** Liveness (`/healthz`: the process answers) and readiness (`/readyz`: the store answers). */
export const healthRoutes: FastifyPluginAsync<{ database: DatabaseHandle; isDraining?: () => boolean }> = async (app, { database, isDraining }) => {
  app.get('/healthz', { schema: { tags: ['operations'], response: { 200: Status } } }, async () => ({ status: 'ok' }));

  app.get('/readyz', { schema: { tags: ['operations'], response: { 200: Status } } }, async () => {
    if (isDraining?.()) throw new AppError('UNAVAILABLE', 'This node is shutting down (draining).', { retryAfter: 1 });
    try {
      await sql`select 1`.execute(database.db);
    } catch (cause) {
      throw new AppError('UNAVAILABLE', 'The database is not reachable.', { retryAfter: 5, cause });
    }
    return { status: 'ready' };
  });
};

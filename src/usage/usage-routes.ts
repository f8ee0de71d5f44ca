import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/tables.ts';
import { accountAuth, requirePrincipal, ACCOUNT_TOKEN_SECURITY } from '../accounts/account-auth.ts';
import { loadOwnedProject } from '../projects/load-owned-project.ts';
import { AppError } from '../errors.ts';
import { ProjectParams } from '../projects/projects-schemas.ts';
import { createUsageRepository } from './usage-repository.ts';
import { UsageQuery, UsageResponse } from './usage-schemas.ts';
import { toUsageEntry, usageTotals } from './usage-totals.ts';

export interface UsageRoutesOptions {
  db: Kysely<Database>;
  pepper?: string;
}

const DAY_MS = 86_400_000;
/** A year and a day: enough for any monthly or yearly report, bounded for the store. */
const MAX_RANGE_DAYS = 366;

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * `GET /api/projects/{project}/usage?from=YYYY-MM-DD&to=YYYY-MM-DD[&groupBy=key]` behind an account
 * token: the project's counters per UTC day, api (key) and outcome, with latency percentiles, and
 * totals over the range. Deleted projects keep their history readable.
 */
export const usageRoutes: FastifyPluginAsync<UsageRoutesOptions> = async (app, { db, pepper }) => {
  app.addHook('onRequest', accountAuth({ db, pepper }));
  const usage = createUsageRepository(db);

  app.get<{ Params: ProjectParams; Querystring: UsageQuery }>(
    '/api/projects/:project/usage',
    {
      schema: {
        tags: ['usage'],
        security: ACCOUNT_TOKEN_SECURITY,
        summary: "A project's usage per day, api and outcome (optionally per API key), with latency percentiles",
        params: ProjectParams,
        querystring: UsageQuery,
        response: { 200: UsageResponse },
      },
    },
    async (request) => {
      const principal = requirePrincipal(request);
      const project = await loadOwnedProject(db, principal, request.params.project);
      const to = request.query.to ?? dayOf(Date.now());
      const from = request.query.from ?? dayOf(Date.parse(to) - 29 * DAY_MS);
      const days = (Date.parse(to) - Date.parse(from)) / DAY_MS + 1;
      if (days < 1 || days > MAX_RANGE_DAYS) {
        throw new AppError('INVALID_ARGUMENT', `from must not be after to, and the range may span at most ${MAX_RANGE_DAYS} days.`, {
          fieldViolations: [{ field: 'from', description: `from=${from}, to=${to}: ${days} days.` }],
        });
      }
      const byKey = request.query.groupBy === 'key';
      const rows = await usage.list(project.projectId, from, to, { byKey });
      const names = byKey ? await usage.keyNames(project.projectId, [...new Set(rows.map((r) => r.key!))]) : undefined;
      return { from, to, usage: rows.map(toUsageEntry), totals: usageTotals(rows, names) };
    },
  );
};

import type { Command } from './command.ts';

export const migrateCommand: Command = {
  summary: 'bring the database schema up to date',
  synopsis: [''],
  description: [
    'Applies the pending migrations to the configured store (DATA_DIR or DATABASE_URL) and prints their names. Servers migrate at start-up too, under a lock; run this ahead of a rollout (the Kubernetes migration Job does) so that new nodes start on an up-to-date schema.',
  ],
  examples: ['DATABASE_URL=postgres://legible@db:5432/legible legible migrate'],
  async run({ config }) {
    // Loaded here, not at start-up: `--help` and the other commands need no store.
    const [{ createDatabase }, { migrateToLatest }] = await Promise.all([import('../db/database.ts'), import('../db/migrate.ts')]);
    const database = createDatabase(config.databaseUrl);
    try {
      const applied = await migrateToLatest(database.db);
      console.log(applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date');
    } finally {
      await database.destroy();
    }
  },
};

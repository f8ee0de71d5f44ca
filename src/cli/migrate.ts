import { createDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import type { Command } from './command.ts';

export const migrateCommand: Command = {
  summary: 'bring the database schema up to date',
  async run({ config }) {
    const database = createDatabase(config.databaseUrl);
    try {
      const applied = await migrateToLatest(database.db);
      console.log(applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date');
    } finally {
      await database.destroy();
    }
  },
};

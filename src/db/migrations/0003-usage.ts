import type { Kysely } from 'kysely';

/**
 * Usage counters (src/usage): one row per project, api, UTC day and outcome. No foreign key to
 * `projects`: counters are history and projects are never hard-deleted anyway.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('usage_counters')
    .addColumn('project_id', 'varchar(30)', (c) => c.notNull())
    .addColumn('api', 'varchar(40)', (c) => c.notNull())
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addColumn('outcome', 'varchar(20)', (c) => c.notNull())
    .addColumn('requests', 'bigint', (c) => c.notNull())
    .addColumn('images', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('usage_counters_pk', ['project_id', 'day', 'api', 'outcome'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('usage_counters').execute();
}

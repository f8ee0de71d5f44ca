import type { Kysely } from 'kysely';

/**
 * Long-running Vision operations (src/operations): one row per asyncBatchAnnotate call, which is
 * also its durable job. A node runs a job while it holds the row's lease (`lease_owner`,
 * `lease_expires`); a node that dies stops renewing it and another (or the restarted one) takes
 * the job over from its recorded `progress`.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('vision_operations')
    .addColumn('operation_id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('project_id', 'varchar(30)', (c) => c.notNull())
    .addColumn('account_id', 'varchar(30)', (c) => c.notNull())
    .addColumn('location', 'varchar(40)')
    .addColumn('kind', 'varchar(10)', (c) => c.notNull())
    .addColumn('state', 'varchar(12)', (c) => c.notNull())
    .addColumn('request', 'text', (c) => c.notNull())
    .addColumn('progress', 'text', (c) => c.notNull())
    .addColumn('total_pages', 'integer')
    .addColumn('done_pages', 'integer', (c) => c.notNull())
    .addColumn('response', 'text')
    .addColumn('error', 'text')
    .addColumn('cancel_requested', 'integer', (c) => c.notNull())
    .addColumn('lease_owner', 'varchar(64)')
    .addColumn('lease_expires', 'varchar(30)')
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('create_time', 'varchar(30)', (c) => c.notNull())
    .addColumn('update_time', 'varchar(30)', (c) => c.notNull())
    .addColumn('end_time', 'varchar(30)')
    .execute();
  await db.schema.createIndex('vision_operations_queue').on('vision_operations').columns(['state', 'create_time']).execute();
  await db.schema.createIndex('vision_operations_project').on('vision_operations').columns(['project_id', 'create_time']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('vision_operations').execute();
}

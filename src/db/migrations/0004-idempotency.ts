import type { Kysely } from 'kysely';

/** `Idempotency-Key` records of the setup POST routes (src/idempotency/). */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('principal', 'varchar(100)', (c) => c.notNull())
    .addColumn('idempotency_key', 'varchar(255)', (c) => c.notNull())
    .addColumn('fingerprint', 'varchar(64)', (c) => c.notNull())
    .addColumn('state', 'varchar(20)', (c) => c.notNull())
    .addColumn('response_status', 'integer')
    .addColumn('response_body', 'text')
    .addColumn('redacted_fields', 'text')
    .addColumn('create_time', 'varchar(40)', (c) => c.notNull())
    .addColumn('update_time', 'varchar(40)', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['principal', 'idempotency_key'])
    .execute();
  await db.schema.createIndex('idempotency_keys_create_idx').on('idempotency_keys').column('create_time').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('idempotency_keys').ifExists().execute();
}

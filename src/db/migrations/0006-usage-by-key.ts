import { sql, type Kysely } from 'kysely';

/**
 * Usage per API key, with a latency histogram (src/usage): `usage_counters` gains `key_id` in its
 * primary key and one bigint column per latency bucket. Neither SQLite nor PostgreSQL can add a
 * column to a primary key in place the same way, so the table is rebuilt and renamed; rows counted
 * before keep their totals under `key_id = 'none'` (no key recorded) with an empty histogram.
 * `vision_operations.key_id` lets a job's pages be charged to the key that started it.
 *
 * The bucket bounds are copied here, not imported: a migration must keep creating the same columns
 * whatever later code does (changing them means a new migration).
 */
const BOUNDS_MS = [
  10, 15, 20, 30, 50, 70, 100, 150, 200, 300, 500, 700, 1000, 1500, 2000, 3000, 5000, 7000, 10000, 15000, 20000, 30000, 50000, 70000,
];
const LATENCY_COLUMNS = [...BOUNDS_MS.map((b) => `lat_${b}`), 'lat_inf'];
const COUNTED = ['project_id', 'day', 'api', 'outcome', 'requests', 'images'];

export async function up(db: Kysely<any>): Promise<void> {
  let table = db.schema
    .createTable('usage_counters_by_key')
    .addColumn('project_id', 'varchar(30)', (c) => c.notNull())
    .addColumn('api', 'varchar(40)', (c) => c.notNull())
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addColumn('key_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('outcome', 'varchar(20)', (c) => c.notNull())
    .addColumn('requests', 'bigint', (c) => c.notNull())
    .addColumn('images', 'bigint', (c) => c.notNull());
  for (const column of LATENCY_COLUMNS) table = table.addColumn(column, 'bigint', (c) => c.notNull().defaultTo(0));
  await table.addPrimaryKeyConstraint('usage_counters_by_key_pk', ['project_id', 'day', 'api', 'key_id', 'outcome']).execute();

  await db
    .insertInto('usage_counters_by_key')
    .columns([...COUNTED, 'key_id'])
    .expression(db.selectFrom('usage_counters').select([...COUNTED, sql.lit('none').as('key_id')]))
    .execute();
  await db.schema.dropTable('usage_counters').execute();
  await db.schema.alterTable('usage_counters_by_key').renameTo('usage_counters').execute();

  await db.schema.alterTable('vision_operations').addColumn('key_id', 'varchar(64)').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('vision_operations').dropColumn('key_id').execute();

  await db.schema
    .createTable('usage_counters_by_day')
    .addColumn('project_id', 'varchar(30)', (c) => c.notNull())
    .addColumn('api', 'varchar(40)', (c) => c.notNull())
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addColumn('outcome', 'varchar(20)', (c) => c.notNull())
    .addColumn('requests', 'bigint', (c) => c.notNull())
    .addColumn('images', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('usage_counters_pk', ['project_id', 'day', 'api', 'outcome'])
    .execute();
  await db
    .insertInto('usage_counters_by_day')
    .columns(COUNTED)
    .expression(
      db
        .selectFrom('usage_counters')
        .select((eb) => ['project_id', 'day', 'api', 'outcome', eb.fn.sum('requests').as('requests'), eb.fn.sum('images').as('images')])
        .groupBy(['project_id', 'day', 'api', 'outcome']),
    )
    .execute();
  await db.schema.dropTable('usage_counters').execute();
  await db.schema.alterTable('usage_counters_by_day').renameTo('usage_counters').execute();
}

import type { Kysely } from 'kysely';

/**
 * Accounts, account tokens, projects, enabled apis, API keys and their secrets, and the audit log.
 * Times are RFC 3339 text (same bytes on SQLite and PostgreSQL, sortable); JSON is text.
 * Secrets are stored only as hashes, each with a unique index (the lookup path).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('accounts')
    .addColumn('account_id', 'varchar(30)', (c) => c.primaryKey())
    .addColumn('create_time', 'varchar(40)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('account_tokens')
    .addColumn('token_id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('account_id', 'varchar(30)', (c) => c.notNull().references('accounts.account_id'))
    .addColumn('token_hash', 'varchar(128)', (c) => c.notNull().unique())
    .addColumn('hint', 'varchar(64)', (c) => c.notNull())
    .addColumn('create_time', 'varchar(40)', (c) => c.notNull())
    .addColumn('revoke_time', 'varchar(40)')
    .execute();
  await db.schema.createIndex('account_tokens_account_idx').on('account_tokens').columns(['account_id', 'token_id']).execute();

  await db.schema
    .createTable('projects')
    .addColumn('project_id', 'varchar(30)', (c) => c.primaryKey())
    .addColumn('account_id', 'varchar(30)', (c) => c.notNull().references('accounts.account_id'))
    .addColumn('display_name', 'varchar(200)', (c) => c.notNull())
    .addColumn('state', 'varchar(20)', (c) => c.notNull())
    .addColumn('create_time', 'varchar(40)', (c) => c.notNull())
    .addColumn('update_time', 'varchar(40)', (c) => c.notNull())
    .addColumn('delete_time', 'varchar(40)')
    .execute();
  await db.schema.createIndex('projects_account_idx').on('projects').columns(['account_id', 'project_id']).execute();

  await db.schema
    .createTable('project_apis')
    .addColumn('project_id', 'varchar(30)', (c) => c.notNull().references('projects.project_id'))
    .addColumn('api', 'varchar(40)', (c) => c.notNull())
    .addColumn('state', 'varchar(20)', (c) => c.notNull())
    .addColumn('requests_per_minute', 'integer', (c) => c.notNull())
    .addColumn('create_time', 'varchar(40)', (c) => c.notNull())
    .addColumn('update_time', 'varchar(40)', (c) => c.notNull())
    .addPrimaryKeyConstraint('project_apis_pk', ['project_id', 'api'])
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('key_id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('project_id', 'varchar(30)', (c) => c.notNull().references('projects.project_id'))
    .addColumn('display_name', 'varchar(200)', (c) => c.notNull())
    .addColumn('restrictions', 'text', (c) => c.notNull())
    .addColumn('hint', 'varchar(64)', (c) => c.notNull())
    .addColumn('create_time', 'varchar(40)', (c) => c.notNull())
    .addColumn('update_time', 'varchar(40)', (c) => c.notNull())
    .addColumn('expire_time', 'varchar(40)')
    .addColumn('delete_time', 'varchar(40)')
    .addColumn('last_used_time', 'varchar(40)')
    .execute();
  await db.schema.createIndex('api_keys_project_idx').on('api_keys').columns(['project_id', 'key_id']).execute();

  await db.schema
    .createTable('api_key_secrets')
    .addColumn('secret_hash', 'varchar(128)', (c) => c.primaryKey())
    .addColumn('key_id', 'varchar(64)', (c) => c.notNull().references('api_keys.key_id'))
    .addColumn('hint', 'varchar(64)', (c) => c.notNull())
    .addColumn('create_time', 'varchar(40)', (c) => c.notNull())
    .addColumn('expire_time', 'varchar(40)')
    .execute();
  await db.schema.createIndex('api_key_secrets_key_idx').on('api_key_secrets').column('key_id').execute();

  await db.schema
    .createTable('audit_log')
    .addColumn('audit_id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('account_id', 'varchar(30)', (c) => c.notNull())
    .addColumn('actor', 'varchar(100)', (c) => c.notNull())
    .addColumn('action', 'varchar(60)', (c) => c.notNull())
    .addColumn('resource_type', 'varchar(40)', (c) => c.notNull())
    .addColumn('resource_id', 'varchar(200)', (c) => c.notNull())
    .addColumn('project_id', 'varchar(30)')
    .addColumn('details', 'text', (c) => c.notNull())
    .addColumn('create_time', 'varchar(40)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_log_account_idx').on('audit_log').columns(['account_id', 'audit_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['audit_log', 'api_key_secrets', 'api_keys', 'project_apis', 'projects', 'account_tokens', 'accounts']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}

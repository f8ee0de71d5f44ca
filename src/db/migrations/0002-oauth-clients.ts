import type { Kysely } from 'kysely';

/**
 * OAuth clients (RFC 7591 metadata) and their secrets, owned by a project. Same conventions as
 * 0001: RFC 3339 text times, JSON as text, secrets only as unique hashes.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('oauth_clients')
    .addColumn('client_id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('project_id', 'varchar(30)', (c) => c.notNull().references('projects.project_id').onDelete('cascade'))
    .addColumn('client_name', 'varchar(200)')
    .addColumn('redirect_uris', 'text', (c) => c.notNull())
    .addColumn('grant_types', 'text', (c) => c.notNull())
    .addColumn('response_types', 'text', (c) => c.notNull())
    .addColumn('token_endpoint_auth_method', 'varchar(40)', (c) => c.notNull())
    .addColumn('client_uri', 'text')
    .addColumn('logo_uri', 'text')
    .addColumn('tos_uri', 'text')
    .addColumn('policy_uri', 'text')
    .addColumn('scope', 'text')
    .addColumn('contacts', 'text', (c) => c.notNull())
    .addColumn('create_time', 'varchar(40)', (c) => c.notNull())
    .addColumn('update_time', 'varchar(40)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('oauth_clients_project_idx').on('oauth_clients').columns(['project_id', 'client_id']).execute();

  await db.schema
    .createTable('oauth_client_secrets')
    .addColumn('secret_id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull().references('oauth_clients.client_id').onDelete('cascade'))
    .addColumn('secret_hash', 'varchar(128)', (c) => c.notNull().unique())
    .addColumn('hint', 'varchar(64)', (c) => c.notNull())
    .addColumn('display_name', 'varchar(200)', (c) => c.notNull())
    .addColumn('create_time', 'varchar(40)', (c) => c.notNull())
    .addColumn('expire_time', 'varchar(40)')
    .addColumn('revoke_time', 'varchar(40)')
    .addColumn('last_used_time', 'varchar(40)')
    .execute();
  await db.schema.createIndex('oauth_client_secrets_client_idx').on('oauth_client_secrets').columns(['client_id', 'secret_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('oauth_client_secrets').ifExists().execute();
  await db.schema.dropTable('oauth_clients').ifExists().execute();
}

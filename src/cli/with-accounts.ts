import type { Config } from '../config.ts';
import { AppError } from '../errors.ts';
import type { AccountsRepository } from '../accounts/accounts-repository.ts';
import { CliError } from './command.ts';

/**
 * Runs `fn` with the accounts repository on the configured store (migrated first, so the CLI works
 * on a fresh `DATA_DIR`), closes the store, and turns an AppError into a clean CLI failure.
 */
export async function withAccounts<T>(config: Config, fn: (accounts: AccountsRepository) => Promise<T>): Promise<T> {
  // The store's modules load only for the commands that use it, not for `--help` or `ocr`.
  const [{ createDatabase }, { migrateToLatest }, { createAccountsRepository }] = await Promise.all([
    import('../db/database.ts'),
    import('../db/migrate.ts'),
    import('../accounts/accounts-repository.ts'),
  ]);
  const database = createDatabase(config.databaseUrl);
  try {
    await migrateToLatest(database.db);
    return await fn(createAccountsRepository(database.db, { pepper: config.secretPepper }));
  } catch (err) {
    if (err instanceof AppError) throw new CliError(err.message, err.code === 'NOT_FOUND' ? 3 : err.code === 'ALREADY_EXISTS' ? 4 : 2);
    throw err;
  } finally {
    await database.destroy();
  }
}

import type { Command } from './command.ts';
import { CliError } from './command.ts';
import { withAccounts } from './with-accounts.ts';

/** `legible accounts create <id> [--json]` → the account and its first token (shown once). */
export const accountsCreateCommand: Command = {
  summary: 'create an account and its first token: accounts create <id> [--json]',
  options: { json: { type: 'boolean' } },
  async run({ config, values, positionals }) {
    if (positionals.length !== 1) throw new CliError('usage: legible accounts create <accountId> [--json]', 2);
    const { account, token, secret } = await withAccounts(config, (accounts) => accounts.createAccount(positionals[0]));
    if (values.json) {
      console.log(JSON.stringify({ account, token: secret }));
      return;
    }
    console.log(`Created account ${account.accountId}.`);
    console.log(`Account token ${token.tokenId} (shown once, store it now):\n\n  ${secret}\n`);
    console.log(`Use it as: Authorization: Bearer <token>`);
  },
};

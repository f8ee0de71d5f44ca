import type { Command } from './command.ts';
import { CliError } from './command.ts';
import { withAccounts } from './with-accounts.ts';

/** `legible tokens create --account <id> [--json]` → a new account token (shown once). */
export const tokensCreateCommand: Command = {
  summary: 'create an account token: tokens create --account <id> [--json]',
  options: { account: { type: 'string' }, json: { type: 'boolean' } },
  async run({ config, values, positionals }) {
    const accountId = values.account;
    if (typeof accountId !== 'string' || positionals.length > 0) throw new CliError('usage: legible tokens create --account <accountId> [--json]', 2);
    const { token, secret } = await withAccounts(config, (accounts) => accounts.createToken(accountId));
    if (values.json) {
      console.log(JSON.stringify({ token: secret, tokenId: token.tokenId, accountId: token.accountId, hint: token.hint, createTime: token.createTime }));
      return;
    }
    console.log(`Account token ${token.tokenId} for ${token.accountId} (shown once, store it now):\n\n  ${secret}\n`);
  },
};

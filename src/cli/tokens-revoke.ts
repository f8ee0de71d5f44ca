import type { Command } from './command.ts';
import { CliError } from './command.ts';
import { withAccounts } from './with-accounts.ts';

/** `legible tokens revoke <tokenId> [--json]`: refused from the next request on. */
export const tokensRevokeCommand: Command = {
  summary: 'revoke an account token: tokens revoke <tokenId> [--json]',
  options: { json: { type: 'boolean' } },
  async run({ config, values, positionals }) {
    if (positionals.length !== 1) throw new CliError('usage: legible tokens revoke <tokenId> [--json]', 2);
    const token = await withAccounts(config, (accounts) => accounts.revokeToken(positionals[0]));
    if (values.json) console.log(JSON.stringify({ token }));
    else console.log(`Revoked token ${token.tokenId} of account ${token.accountId} at ${token.revokeTime}.`);
  },
};

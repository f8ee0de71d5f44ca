import type { Command } from './command.ts';
import { CliError } from './command.ts';
import { withAccounts } from './with-accounts.ts';

/** `legible tokens revoke <tokenId> [--json]`: refused from the next request on. */
export const tokensRevokeCommand: Command = {
  summary: 'revoke an account token',
  synopsis: ['<tokenId> [--json]'],
  description: [
    'Revokes the token: every node refuses it from its next request on. The tokenId is the `tok-…` id printed when the token was created (also in GET /api/accounts/{account}/tokens).',
  ],
  optionDocs: [{ flags: '--json', doc: 'Print {"token": {…}} with the revoked token\'s metadata.' }],
  exitStatus: ['0  revoked', '1  the store failed', '2  bad arguments', '3  no such token'],
  examples: ['legible tokens revoke tok-0123456789abcdef'],
  options: { json: { type: 'boolean' } },
  async run({ config, values, positionals }) {
    if (positionals.length !== 1) throw new CliError('usage: legible tokens revoke <tokenId> [--json]', 2);
    const token = await withAccounts(config, (accounts) => accounts.revokeToken(positionals[0]));
    if (values.json) console.log(JSON.stringify({ token }));
    else console.log(`Revoked token ${token.tokenId} of account ${token.accountId} at ${token.revokeTime}.`);
  },
};

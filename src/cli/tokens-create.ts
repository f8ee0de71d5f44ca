import type { Command } from './command.ts';
import { CliError } from './command.ts';
import { withAccounts } from './with-accounts.ts';

/** `legible tokens create --account <id> [--json]` → a new account token (shown once). */
export const tokensCreateCommand: Command = {
  summary: 'create another account token (shown once)',
  synopsis: ['--account <accountId> [--json]'],
  description: [
    'Creates a new account token for an existing account in the configured store and prints it once. Several tokens can be live at a time; revoke the ones you no longer use.',
  ],
  optionDocs: [
    { flags: '--account ACCOUNT', doc: 'The account the token acts for (required).' },
    { flags: '--json', doc: 'Print {"token", "tokenId", "accountId", "hint", "createTime"} on one line.' },
  ],
  exitStatus: ['0  created', '1  the store failed', '2  bad arguments', '3  no such account'],
  examples: ['legible tokens create --account acme --json'],
  options: { account: { type: 'string' }, json: { type: 'boolean' } },
  async run({ config, values, positionals }) {
    const accountId = values.account;
    if (typeof accountId !== 'string' || positionals.length > 0)
      throw new CliError('usage: legible tokens create --account <accountId> [--json]', 2);
    const { token, secret } = await withAccounts(config, (accounts) => accounts.createToken(accountId));
    if (values.json) {
      console.log(
        JSON.stringify({
          token: secret,
          tokenId: token.tokenId,
          accountId: token.accountId,
          hint: token.hint,
          createTime: token.createTime,
        }),
      );
      return;
    }
    console.log(`Account token ${token.tokenId} for ${token.accountId} (shown once, store it now):\n\n  ${secret}\n`);
  },
};

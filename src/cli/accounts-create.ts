import type { Command } from './command.ts';
import { CliError } from './command.ts';
import { withAccounts } from './with-accounts.ts';

/** `legible accounts create <id> [--json]` → the account and its first token (shown once). */
export const accountsCreateCommand: Command = {
  summary: 'create an account and its first account token (shown once)',
  synopsis: ['<accountId> [--json]'],
  description: [
    'Creates the account in the configured store (DATA_DIR or DATABASE_URL; the schema is migrated first, so a fresh store works) and prints its first account token. The token is shown this once: store it. Use it as `Authorization: Bearer <token>` on the setup API and to sign in to the console.',
    "Run it where the server's store is: on the same machine (same DATA_DIR), or in the server's container (`docker exec -it <container> legible accounts create acme`), or anywhere with the same DATABASE_URL.",
  ],
  options: { json: { type: 'boolean' } },
  optionDocs: [{ flags: '--json', doc: 'Print {"account": {…}, "token": "lgb_at_…"} on one line instead of text.' }],
  exitStatus: ['0  created', '1  the store failed', '2  bad arguments or an invalid accountId', '4  the account already exists'],
  examples: [
    'legible accounts create acme',
    `TOKEN=$(legible accounts create acme --json | node -pe 'JSON.parse(require("fs").readFileSync(0)).token')`,
  ],
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

import type { Command } from './command.ts';

export const serveCommand: Command = {
  summary: 'start the HTTP service (same as npm start)',
  synopsis: [''],
  description: [
    'Starts the server with the configuration from the environment (HOST, PORT, DATA_DIR, DATABASE_URL, …; see the README) and serves until SIGTERM or SIGINT, then drains and exits 0.',
  ],
  examples: ['PORT=8080 DATA_DIR=./data legible serve'],
  async run() {
    // The server's modules load only when it starts: every other command and `--help` need none of them.
    const { main } = await import('../main.ts');
    await main();
  },
};

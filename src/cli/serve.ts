import { main } from '../main.ts';
import type { Command } from './command.ts';

export const serveCommand: Command = {
  summary: 'start the HTTP service (same as npm start)',
  async run() {
    await main();
  },
};

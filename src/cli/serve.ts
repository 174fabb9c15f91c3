// lead-intake serve: exactly what `npm start` runs.
import { loadConfig } from '../config.ts';
import { type CommandGroup, parseCommandLine } from './command.ts';

const HELP = `Usage:
  lead-intake serve   start the HTTP server (applies pending migrations first); configured by
                      the environment: PORT, HOST, PUBLIC_URL, DATABASE_URL, DATA_DIR, LOG_LEVEL, ...`;

export const serveCommand: CommandGroup = {
  name: 'serve',
  summary: 'start the HTTP server (what npm start runs)',
  async run(args, io) {
    parseCommandLine('serve', HELP, args, {});
    const config = loadConfig(io.env);
    // Loaded here, not at the top: the other commands need none of the HTTP stack, and
    // loading it would double their start-up time.
    const { startServer } = await import('../server.ts');
    // The process keeps running until SIGINT/SIGTERM; server.ts owns the shutdown.
    await startServer(config);
  },
};

// lead-intake serve: exactly what `npm start` runs.
import { loadConfig } from '../config.ts';
import { type CommandGroup, parseCommandLine } from './command.ts';

const HELP = `Usage:
  lead-intake serve [--workers N|auto]
                      start the HTTP server (applies pending migrations first); configured by
                      the environment: PORT, HOST, PUBLIC_URL, DATABASE_URL, DATA_DIR, LOG_LEVEL, ...

Options:
  --workers N|auto    N worker processes share the port (auto: one per core); overrides
                      WORKERS. More than one needs PostgreSQL (DATABASE_URL).`;

export const serveCommand: CommandGroup = {
  name: 'serve',
  summary: 'start the HTTP server (what npm start runs)',
  async run(args, io) {
    const { values } = parseCommandLine('serve', HELP, args, { workers: { type: 'string' } });
    // The option is WORKERS by another name: checked by the same rule, in the same message.
    const config = loadConfig(values.workers === undefined ? io.env : { ...io.env, WORKERS: values.workers });
    // Loaded here, not at the top: the other commands need none of the HTTP stack, and
    // loading it would double their start-up time.
    const { serve } = await import('../server.ts');
    // The process keeps running until SIGINT/SIGTERM; server.ts owns the shutdown.
    await serve(config);
  },
};

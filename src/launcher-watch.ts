// `npm start` (and `npx lead-intake serve`) run the server under `sh -c`, and npm passes a
// SIGTERM it receives only to that shell, which dies without passing it on: the server was
// left running, orphaned, still holding its port (docs/operations.md, "Health, metrics and
// logs"). So a process that npm started stops, exactly as on SIGTERM, once the process
// that started it is gone, whatever ended it (SIGTERM, SIGKILL, a closed terminal).
// Started otherwise (node src/server.ts, systemd, a container's command, nohup), it is
// left alone: there, an exiting parent is no reason to stop.
export function stopWhenLauncherExits(env: NodeJS.ProcessEnv = process.env, intervalMs = 250): void {
  if (env.npm_lifecycle_event === undefined) return;
  const launcher = process.ppid;
  const timer = setInterval(() => {
    // An orphan is re-parented (to init, or a subreaper): its parent id changes.
    if (process.ppid === launcher) return;
    clearInterval(timer);
    process.kill(process.pid, 'SIGTERM');
  }, intervalMs);
  // Never what keeps the process alive.
  timer.unref();
}

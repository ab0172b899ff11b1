// Preloaded into the bench server (NODE_OPTIONS=--import …; Node refuses --cpu-prof there): with
// BENCH_PROFILE=dir, the server's CPU profile from its start to its exit is written to
// dir/server-<pid>.cpuprofile (open it in Chrome's DevTools, Performance tab). The server stops with
// process.exit, so the profile is taken there.
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import path from 'node:path';

const dir = process.env.BENCH_PROFILE;
if (dir) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 500 });
  session.post('Profiler.start');
  const exit = process.exit.bind(process);
  process.exit = (code) => {
    // The inspector answers a session of the same thread synchronously.
    session.post('Profiler.stop', (err, result) => {
      if (!err) {
        mkdirSync(dir, { recursive: true });
        writeFileSync(path.join(dir, `server-${process.pid}.cpuprofile`), JSON.stringify(result.profile));
      }
    });
    return exit(code);
  };
}

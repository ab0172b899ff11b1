#!/usr/bin/env node
// `node scripts/cpu-of.mjs <command…>`: runs the command and prints the CPU seconds (user + system) that it
// and every process it starts used, by kind (Chromium's browser and renderers, the server, PostgreSQL,
// Playwright's worker…), then the total. Linux only: the processes are read from /proc twice a second, each
// process's last reading counts (so up to half a second of each is missed). `/usr/bin/time` counts only the
// children waited for, and Playwright's worker does not wait for its Chromium: it missed two thirds of a
// journey file's CPU time.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('usage: node scripts/cpu-of.mjs <command> [args…]');
  process.exit(2);
}
const TICK = 100; // USER_HZ, 100 on Linux
const child = spawn(command, args, { stdio: 'inherit' });
/** pid → [kind, CPU seconds at the last reading] */
const seen = new Map();

function kindOf(name, cmd) {
  if (/chrom/.test(name) || /chrom/.test(cmd.split(' ')[0] ?? '')) {
    const type = cmd.match(/--type=(\w+)/)?.[1] ?? 'browser';
    return `chromium ${type}`;
  }
  if (name === 'node' || name.startsWith('node')) {
    if (/\bmain\.js\b/.test(cmd)) return 'node: server';
    if (/seed/.test(cmd)) return 'node: seed';
    if (/playwright/.test(cmd)) return 'node: playwright';
    return 'node: other';
  }
  return name;
}

function sample() {
  const procs = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const fields = stat.slice(close + 2).split(' ');
      procs.set(Number(entry), {
        ppid: Number(fields[1]),
        name: stat.slice(stat.indexOf('(') + 1, close),
        cpu: (Number(fields[11]) + Number(fields[12])) / TICK,
      });
    } catch {
      // ended meanwhile
    }
  }
  const tree = new Set([child.pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, p] of procs) {
      if (tree.has(pid) || !tree.has(p.ppid)) continue;
      tree.add(pid);
      grew = true;
    }
  }
  for (const pid of tree) {
    const p = procs.get(pid);
    if (!p) continue;
    let kind = seen.get(pid)?.[0];
    if (!kind) {
      let cmd = '';
      try {
        cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      } catch {}
      kind = kindOf(p.name, cmd);
    }
    seen.set(pid, [kind, p.cpu]);
  }
}

const timer = setInterval(sample, 500);
sample();
child.on('close', (code) => {
  clearInterval(timer);
  const byKind = new Map();
  for (const [kind, cpu] of seen.values()) byKind.set(kind, (byKind.get(kind) ?? 0) + cpu);
  const total = [...byKind.values()].reduce((a, b) => a + b, 0);
  console.error('cpu-of: CPU seconds by process kind');
  for (const [kind, cpu] of [...byKind].sort((a, b) => b[1] - a[1]))
    if (cpu >= 0.05) console.error(`${cpu.toFixed(1).padStart(8)}  ${kind}`);
  console.error(`${total.toFixed(1).padStart(8)}  total`);
  process.exit(code ?? 1);
});

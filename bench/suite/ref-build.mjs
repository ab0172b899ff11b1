// The server of another commit, for a before/after run (bench/suite.mjs --compare <ref>): the commit checked
// out into a temporary git worktree, the repository's node_modules hard-linked into it (cp -al: no copy,
// no install; the packages are today's, the code is the commit's), and its server built there
// (packages/server/build.mjs: esbuild, a few seconds). A build of the same commit is reused while its
// folder is there; `remove()` takes the worktree away.
import { execFileSync } from 'node:child_process';
import { existsSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const git = (...args) => execFileSync('git', args, { encoding: 'utf8' }).trim();

/** Builds the server of `ref` (any commit-ish) aside; its entry (`main`), its commit, `remove()`. */
export function buildRef(ref) {
  const sha = git('rev-parse', '--verify', `${ref}^{commit}`);
  const dir = path.join(os.tmpdir(), `trasa-bench-ref-${sha.slice(0, 12)}`);
  const main = path.join(dir, 'packages/server/dist/main.js');
  const remove = () => {
    try {
      git('worktree', 'remove', '--force', dir);
    } catch {
      rmSync(dir, { recursive: true, force: true });
      git('worktree', 'prune');
    }
  };
  if (existsSync(main)) {
    console.log(`${ref} (${sha.slice(0, 12)}): the build in ${dir} is reused`);
    return { sha, main, dir, remove };
  }
  if (existsSync(dir)) remove();
  git('worktree', 'prune');
  const t0 = Date.now();
  git('worktree', 'add', '--detach', dir, sha);
  try {
    try {
      execFileSync('cp', ['-al', path.resolve('node_modules'), path.join(dir, 'node_modules')]);
    } catch {
      // Another file system than the repository's (no hard links across them): the same folder by a link.
      symlinkSync(path.resolve('node_modules'), path.join(dir, 'node_modules'));
    }
    execFileSync(process.execPath, ['build.mjs'], { cwd: path.join(dir, 'packages/server'), stdio: 'inherit' });
  } catch (e) {
    remove();
    throw e;
  }
  console.log(`${ref} (${sha.slice(0, 12)}) built in ${dir} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return { sha, main, dir, remove };
}

import { ACCOUNT } from '@trasa/domain';
import { afterEach, describe, expect, it } from 'vitest';
import { configurePasswordWork, PasswordWorkBusy, passwordWeakness, passwordWorkStats, runPasswordWork } from './passwords.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('bounded password work', () => {
  afterEach(() => configurePasswordWork());

  it('runs one hash at a time, queues a few and refuses the rest with 503', async () => {
    configurePasswordWork({ concurrency: 1, maxWaiting: { normal: 2, suspect: 1 }, maxWaitMs: 5000 });
    let running = 0;
    let most = 0;
    const work = async () => {
      running++;
      most = Math.max(most, running);
      await sleep(20);
      running--;
      return 'ok';
    };
    const results = await Promise.allSettled(Array.from({ length: 6 }, () => runPasswordWork('normal', work)));
    expect(most).toBe(1);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(refused).toHaveLength(3);
    for (const r of refused) {
      expect(r.reason).toBeInstanceOf(PasswordWorkBusy);
      expect(r.reason).toMatchObject({ statusCode: 503, message: ACCOUNT.busy });
    }
    expect(passwordWorkStats()).toMatchObject({ running: 0, waiting: 0 });
  });

  it('gives up on work that waited too long', async () => {
    configurePasswordWork({ concurrency: 1, maxWaiting: { normal: 5, suspect: 1 }, maxWaitMs: 30 });
    const slow = runPasswordWork('normal', () => sleep(120));
    const late = runPasswordWork('normal', async () => 'never');
    await expect(late).rejects.toBeInstanceOf(PasswordWorkBusy);
    await slow;
  });

  it('serves known addresses first, then ordinary work, then the work of accounts under attack', async () => {
    configurePasswordWork({ concurrency: 1, maxWaiting: { normal: 5, suspect: 5 }, maxWaitMs: 5000 });
    const order: string[] = [];
    const job = (name: string) => async () => {
      order.push(name);
      await sleep(10);
    };
    const first = runPasswordWork('suspect', job('suspect-1'));
    const queued = [
      runPasswordWork('suspect', job('suspect-2')),
      runPasswordWork('suspect', job('suspect-3')),
      runPasswordWork('normal', job('normal-1')),
      runPasswordWork('known', job('known-1')),
      runPasswordWork('normal', job('normal-2')),
    ];
    await Promise.all([first, ...queued]);
    expect(order).toEqual(['suspect-1', 'known-1', 'normal-1', 'normal-2', 'suspect-2', 'suspect-3']);
  });

  it('keeps the suspect queue short: a flood at attacked accounts is refused, ordinary work still queues', async () => {
    configurePasswordWork({ concurrency: 1, maxWaiting: { normal: 2, suspect: 1 }, maxWaitMs: 5000 });
    const busy = runPasswordWork('suspect', () => sleep(30));
    const flood = await Promise.allSettled(Array.from({ length: 5 }, () => runPasswordWork('suspect', () => sleep(1))));
    expect(flood.filter((r) => r.status === 'rejected').length).toBeGreaterThanOrEqual(4);
    await expect(runPasswordWork('normal', async () => 'user')).resolves.toBe('user');
    await busy;
  });
});

describe('password strength beyond the domain rules', () => {
  it('refuses the most common passwords and their obvious variants', () => {
    for (const weak of [
      'password',
      'Password1',
      'iloveyou',
      'aaaaaaaa',
      'abababab',
      'abcdefgh',
      'qwertzui',
      'Qwerty2024!',
      'sunshine1987',
    ]) {
      expect(passwordWeakness(weak), weak).toBe(ACCOUNT.passwordTooCommon);
    }
  });

  it('refuses the Serbian additions, with or without diacritics and appended digits', () => {
    for (const weak of [
      'lozinka',
      'lozinka123',
      'Lozinka123',
      'sifra123',
      'šifra123',
      'Šifra2024!',
      'srbija',
      'Srbija1389',
      'beograd011',
    ]) {
      expect(passwordWeakness(weak), weak).toBe(ACCOUNT.passwordTooCommon);
    }
  });

  it('refuses a password built on the owner name or e-mail', () => {
    const owner = { ime: 'Dragana', prezime: 'Đorđević', email: 'gaga.dj@primer.rs' };
    for (const weak of ['Dragana1990', 'djordjevic!7', 'xxDJORDJEVICxx', 'gaga.dj2024', 'Gaga.dj']) {
      expect(passwordWeakness(weak, owner), weak).toBe(ACCOUNT.passwordPersonal);
    }
    expect(passwordWeakness('Ana12345', { ime: 'Ana' })).toBe(ACCOUNT.passwordPersonal);
    // A three-letter name only as the whole word: it may appear inside another one.
    expect(passwordWeakness('Banana-Split7', { ime: 'Ana' })).toBeNull();
  });

  it('accepts ordinary strong passwords', () => {
    for (const ok of ['NovaLozinka1', 'Vlakno2025', 'Kabl-Mreza-77', 'SasvimNova1', 'GostLozinka1']) {
      expect(passwordWeakness(ok, { ime: 'Milan', prezime: 'Ilić', email: 'milan.ilic@primer.rs' }), ok).toBeNull();
    }
  });
});

describe('the hashing worker', () => {
  it('never keeps a finished process alive (the demo seed and other CLIs exit)', async () => {
    const { spawn } = await import('node:child_process');
    const path = await import('node:path');
    const { fileURLToPath } = await import('node:url');
    const here = path.dirname(fileURLToPath(import.meta.url));
    const script = `import { hashPassword } from ${JSON.stringify(path.join(here, 'passwords.ts'))};
      await hashPassword('Neka-Lozinka-42');
      console.log('hashed');`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += String(d);
    });
    const code = await new Promise<number | string>((resolve) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        resolve('still running after 60 s');
      }, 60_000);
      child.on('exit', (c) => {
        clearTimeout(timer);
        resolve(c ?? -1);
      });
    });
    expect(out).toContain('hashed');
    expect(code).toBe(0);
  }, 90_000); // limits against a hang: the hash and tsx's start take a few seconds
});

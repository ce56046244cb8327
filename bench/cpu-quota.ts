// `--pi`: a Raspberry Pi-class CPU, played by a cgroup CPU quota on the server's process: 3 ms of
// CPU per 10 ms period, 30 % of one core. cgroup v2 (`cpu.max`) where /sys/fs/cgroup is the
// unified hierarchy; cgroup v1's cpu controller (`cpu.cfs_quota_us`) where the cpu controller is
// mounted on its own (a hybrid host, such as the development machine). Needs root.
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const QUOTA_US = 3000;
export const PERIOD_US = 10_000;

export interface CpuQuota {
  /** The cgroup.procs file a process writes its pid to, to enter the cgroup. */
  procs: string;
  /** What limits it, for the report. */
  describe: string;
  /** Removes the cgroup (its processes must have exited). */
  remove(): void;
}

const V2 = '/sys/fs/cgroup';
const V1_CPU = '/sys/fs/cgroup/cpu';

/** A new cgroup with the quota; throws an Error whose message is one line when it cannot be made. */
export function createCpuQuota(): CpuQuota {
  if (process.getuid?.() !== 0) throw new Error('--pi needs root: it limits the server with a cgroup CPU quota');
  const name = `wallet-loyalty-bench-${process.pid}`;
  const attempt = (what: string, fn: () => void) => {
    try {
      fn();
    } catch (err) {
      throw new Error(`--pi: cannot ${what}: ${(err as Error).message}`);
    }
  };
  let dir: string;
  let describe: string;
  if (existsSync(path.join(V2, 'cgroup.controllers'))) {
    if (!readFileSync(path.join(V2, 'cgroup.controllers'), 'utf8').split(/\s+/).includes('cpu')) {
      throw new Error(`--pi: the cgroup v2 hierarchy at ${V2} has no cpu controller`);
    }
    const subtree = path.join(V2, 'cgroup.subtree_control');
    if (!readFileSync(subtree, 'utf8').split(/\s+/).includes('cpu')) attempt(`enable the cpu controller in ${subtree}`, () => writeFileSync(subtree, '+cpu'));
    dir = path.join(V2, name);
    attempt(`create ${dir}`, () => mkdirSync(dir));
    attempt('set cpu.max', () => writeFileSync(path.join(dir, 'cpu.max'), `${QUOTA_US} ${PERIOD_US}`));
    describe = `cgroup v2 ${dir}, cpu.max "${QUOTA_US} ${PERIOD_US}"`;
  } else if (existsSync(path.join(V1_CPU, 'cpu.cfs_quota_us'))) {
    dir = path.join(V1_CPU, name);
    attempt(`create ${dir}`, () => mkdirSync(dir));
    attempt('set the CFS quota', () => {
      writeFileSync(path.join(dir, 'cpu.cfs_period_us'), String(PERIOD_US));
      writeFileSync(path.join(dir, 'cpu.cfs_quota_us'), String(QUOTA_US));
    });
    describe = `cgroup v1 ${dir}, cpu.cfs_quota_us ${QUOTA_US} per cpu.cfs_period_us ${PERIOD_US}`;
  } else {
    throw new Error(`--pi: no cgroup CPU controller here (neither ${V2}/cgroup.controllers nor ${V1_CPU}/cpu.cfs_quota_us)`);
  }
  return {
    procs: path.join(dir, 'cgroup.procs'),
    describe,
    remove() {
      // A killed process leaves its cgroup only once the kernel has reaped it: try for a second.
      const until = Date.now() + 1000;
      for (;;) {
        try {
          rmdirSync(dir);
          return;
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code === 'ENOENT' || Date.now() > until) return;
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
        }
      }
    },
  };
}

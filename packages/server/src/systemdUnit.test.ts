import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The systemd unit of an instance (deploy/systemd, docs/OPERATIONS.md "Running it as a service"),
 * checked by systemd's own tools: `systemd-analyze verify` (every line understood, the program
 * there), `systemd-analyze security` (the exposure figure the docs give), systemd-sysusers and
 * systemd-tmpfiles on a scratch root. Needs Debian's systemd (.ci/run installs it): with CI=true
 * a missing one fails, elsewhere these tests are skipped.
 */
const repo = new URL('../../../', import.meta.url);
const deploy = new URL('deploy/systemd/', repo);
const unitText = readFileSync(new URL('ros-portal@.service', deploy), 'utf8');
const operations = readFileSync(new URL('docs/OPERATIONS.md', repo), 'utf8');
const tool = spawnSync('systemd-analyze', ['--version'], { encoding: 'utf8' });
const systemdVersion = Number(/^systemd (\d+)/.exec(tool.stdout ?? '')?.[1] ?? 0);
const missing = tool.status !== 0;
if (missing && process.env.CI === 'true')
  throw new Error('systemd-analyze is missing (apt-get install systemd)');

const scratch = mkdtempSync(join(tmpdir(), 'ros-systemd-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The unit in a scratch folder as instance `a`, run by the Node that runs the tests (verify wants the program to exist). */
function instanceUnit(): string {
  writeFileSync(
    join(scratch, 'ros-portal@.service'),
    unitText.replace(/^ExecStart=\/opt\/node24\/bin\/node /m, `ExecStart=${process.execPath} `),
  );
  return join(scratch, 'ros-portal@a.service');
}

function run(cmd: string, args: string[]) {
  const r = spawnSync(cmd, args, { encoding: 'utf8' });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

describe.skipIf(missing)('deploy/systemd/ros-portal@.service', () => {
  it('says what the docs say: own user, no new privileges, read-only system, its data folder, restart on failure, the settings file', () => {
    const lines = unitText.split('\n');
    for (const line of [
      'User=ros-portal',
      'NoNewPrivileges=yes',
      'ProtectSystem=strict',
      'StateDirectory=ros-portal/%i',
      'Restart=on-failure',
      'EnvironmentFile=/etc/ros-portal/%i.env',
      'Environment=NODE_ENV=production ROS_DATA_DIR=/var/lib/ros-portal/%i',
    ]) {
      expect(lines).toContain(line);
    }
    expect(unitText).not.toMatch(/^(ReadWritePaths|DynamicUser)=/m);
    expect(operations).toContain('/etc/ros-portal/<instance>.env');
  });

  it('passes systemd-analyze verify with nothing to say', () => {
    const r = run('systemd-analyze', ['verify', instanceUnit()]);
    expect(r.out).toBe('');
    expect(r.status).toBe(0);
  });

  it('a unit with a mistake does not (the check can fail)', () => {
    const bad = join(scratch, 'bad');
    rmSync(bad, { recursive: true, force: true });
    spawnSync('mkdir', [bad]);
    writeFileSync(
      join(bad, 'ros-portal@.service'),
      unitText.replace('NoNewPrivileges=yes', 'NoNewPrivileges=maybe'),
    );
    expect(run('systemd-analyze', ['verify', join(bad, 'ros-portal@a.service')]).out).toMatch(
      /NoNewPrivileges|boolean/,
    );
  });

  it('has the exposure docs/OPERATIONS.md gives (systemd-analyze security)', () => {
    const r = run('systemd-analyze', ['security', '--offline=true', '--no-pager', instanceUnit()]);
    expect(r.status, r.out).toBe(0);
    const exposure = Number(/Overall exposure level for ros-portal@a\.service: ([\d.]+)/.exec(r.out)?.[1]);
    const documented = /exposure level[^\n]*?\*\*([\d.]+)[^*]*\*\* with systemd (\d+)/.exec(operations);
    expect(documented, 'the figure in docs/OPERATIONS.md').not.toBeNull();
    // Another systemd weighs other settings: the docs' figure is for the systemd it names.
    if (systemdVersion === Number(documented?.[2])) expect(exposure).toBe(Number(documented?.[1]));
    expect(exposure).toBeLessThanOrEqual(2);
  });

  it('sysusers.d makes the system user and tmpfiles.d the settings folder, root-only', () => {
    const root = join(scratch, 'root');
    spawnSync('mkdir', ['-p', join(root, 'etc')]);
    copyFileSync(new URL('sysusers.d/ros-portal.conf', deploy), join(scratch, 'sysusers.conf'));
    const users = run('systemd-sysusers', [`--root=${root}`, join(scratch, 'sysusers.conf')]);
    expect(users.status, users.out).toBe(0);
    const passwd = readFileSync(join(root, 'etc/passwd'), 'utf8');
    expect(passwd).toMatch(/^ros-portal:x:\d+:\d+:ROS portal:\/:\/(usr\/)?sbin\/nologin$/m);
    copyFileSync(new URL('tmpfiles.d/ros-portal.conf', deploy), join(scratch, 'tmpfiles.conf'));
    const dirs = run('systemd-tmpfiles', [`--root=${root}`, '--create', join(scratch, 'tmpfiles.conf')]);
    expect(dirs.status, dirs.out).toBe(0);
    expect(statSync(join(root, 'etc/ros-portal')).mode & 0o777).toBe(0o700);
  });
});

import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { get as httpsGet } from 'node:https';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from '@playwright/test';
import pg from 'pg';

/**
 * The production topology on one machine, for the topology test: Debian's nginx ends TLS (a
 * certificate made here) in front of two app instances (the built server) on one PostgreSQL
 * database made for the run. nginx runs the deploy/nginx/ros.conf.template that
 * docs/OPERATIONS.md documents, filled in like a deployment would.
 */

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const PG_ADMIN_URL = process.env.ROS_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface InstanceLog {
  msg?: string;
  req?: { method?: string; path?: string };
  res?: { statusCode?: number };
  [key: string]: unknown;
}

export class Instance {
  child: ChildProcess | undefined;
  readonly logs: InstanceLog[] = [];
  exitCode: number | null | undefined;

  constructor(
    readonly name: string,
    readonly port: number,
    private readonly env: Record<string, string>,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  start(): void {
    this.exitCode = undefined;
    this.logs.length = 0;
    const child = spawn(process.execPath, ['packages/server/dist/main.js'], {
      cwd: repo,
      env: { ...process.env, ...this.env, PORT: String(this.port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    let buffered = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        try {
          this.logs.push(JSON.parse(line) as InstanceLog);
        } catch {
          this.logs.push({ msg: line });
        }
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => this.logs.push({ msg: chunk.toString(), stderr: true }));
    child.on('exit', (code) => {
      this.exitCode = code;
    });
  }

  /** Waits until the instance says it is ready (GET /readyz 200), or fails when it exits first. */
  async ready(timeoutMs = 60000): Promise<void> {
    const until = Date.now() + timeoutMs;
    let last = 'no answer yet';
    while (Date.now() < until) {
      if (this.exitCode !== undefined) {
        throw new Error(`${this.name} exited with ${this.exitCode}: ${this.stderr().slice(-2000)}`);
      }
      try {
        const r = await fetch(`${this.url}/readyz`, { signal: AbortSignal.timeout(2000) });
        if (r.status === 200) return;
        last = `${r.status} ${(await r.text()).slice(0, 200)}`;
      } catch (err) {
        // not listening yet
        last = String((err as { cause?: unknown }).cause ?? err);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    // What it said last, and its own last log lines: a start that hangs says where.
    const tail = this.logs
      .slice(-15)
      .map((l) => (typeof l.msg === 'string' ? l.msg : JSON.stringify(l)).trim())
      .join('\n');
    throw new Error(
      `${this.name} (port ${this.port}) not ready within ${timeoutMs} ms; /readyz: ${last}; log:\n${tail}`,
    );
  }

  stderr(): string {
    return this.logs
      .filter((l) => l.stderr || (typeof l.level === 'number' && l.level >= 50))
      .map((l) => (typeof l.msg === 'string' ? l.msg : JSON.stringify(l)))
      .join('\n');
  }

  /** Requests this instance took for a method and route pattern (from its request logs). */
  answered(method: string, path: string): number {
    return this.logs.filter(
      (l) => l.msg === 'incoming request' && l.req?.method === method && l.req?.path === path,
    ).length;
  }

  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
    const child = this.child;
    if (!child || this.exitCode !== undefined) return this.exitCode ?? null;
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    child.kill(signal);
    return exited;
  }
}

/**
 * `count` different ports between 4300 and 5999 that nothing listens on now (each is bound and
 * let go in a child process, synchronously). A port picked at random without that check once
 * met something already listening there. The range stays below the ephemeral ports, which
 * outgoing connections take.
 */
export function freePorts(count: number): number[] {
  const script = `
    const net = require('node:net');
    const taken = new Set();
    const free = (port) => new Promise((done) => {
      const s = net.createServer();
      s.once('error', () => done(false));
      s.listen({ port, host: '0.0.0.0', exclusive: true }, () => s.close(() => done(true)));
    });
    (async () => {
      const out = [];
      for (let tries = 0; out.length < ${count} && tries < 500; tries++) {
        const port = 4300 + Math.floor(Math.random() * 1700);
        if (taken.has(port)) continue;
        taken.add(port);
        if (await free(port)) out.push(port);
      }
      process.stdout.write(JSON.stringify(out));
    })();`;
  const ports = JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })) as number[];
  if (ports.length !== count) throw new Error(`only ${ports.length} free ports found`);
  return ports;
}

export interface ClusterOptions {
  /** Settings every instance gets on top of the defaults below. */
  env?: Record<string, string>;
  /** Values of the nginx template's variables on top of writeNginxConfig's. */
  nginx?: Record<string, string>;
  /** Changes the filled-in template before nginx reads it (a test's shorter timeout). */
  site?: (conf: string) => string;
}

export class Cluster {
  readonly dir = mkdtempSync(join(tmpdir(), 'ros-topology-'));
  readonly database = `ros_topology_${randomBytes(4).toString('hex')}`;
  /** nginx's https and http ports and the two instances' ports: free when the cluster is made. */
  private readonly ports = freePorts(4);
  readonly httpsPort = this.ports[0] as number;
  readonly httpPort = this.ports[1] as number;
  readonly instances: Instance[];
  private nginx: ChildProcess | undefined;
  readonly databaseUrl: string;

  constructor(private readonly opts: ClusterOptions = {}) {
    const admin = new URL(PG_ADMIN_URL);
    admin.pathname = `/${this.database}`;
    this.databaseUrl = admin.toString();
    const shared: Record<string, string> = {
      NODE_ENV: 'test',
      DATABASE_URL: this.databaseUrl,
      ROS_PUBLIC_URL: this.publicUrl,
      ROS_TRUST_PROXY: '127.0.0.1',
      ROS_ALTCHA_HMAC_KEY: randomBytes(32).toString('hex'),
      ROS_ALTCHA_MAX_NUMBER: '5000',
      // High enough for the revocation test's polling; the limits test checks the sharing.
      ROS_RATE_LIMIT_VALIDITY: '200',
      // Every page load fetches the lists; the tests load many from one address.
      ROS_RATE_LIMIT_LISTS: '100000',
      ROS_DEMO_DATA: 'true',
      ROS_REFERENCE_DOWNLOAD: 'false',
      NODE_EXTRA_CA_CERTS: join(this.dir, 'tls.crt'),
      ROS_SHUTDOWN_GRACE_SECONDS: '2',
      LOG_LEVEL: 'info',
      ...opts.env,
    };
    this.instances = ['a', 'b'].map(
      (name, i) =>
        new Instance(name, this.ports[2 + i] as number, {
          ...shared,
          ROS_DATA_DIR: join(this.dir, `data-${name}`),
        }),
    );
  }

  get publicUrl(): string {
    return `https://localhost:${this.httpsPort}`;
  }

  async createDatabase(): Promise<void> {
    const c = new pg.Client({ connectionString: PG_ADMIN_URL });
    await c.connect();
    await c.query(`create database ${this.database}`);
    await c.end();
  }

  readonly cert = join(this.dir, 'tls.crt');
  readonly key = join(this.dir, 'tls.key');

  /**
   * A self-signed RSA certificate for localhost and 127.0.0.1. The browser is told to accept it; the
   * instances trust it through NODE_EXTRA_CA_CERTS, since they fetch the local NIA provider's
   * discovery document through the proxy, at the public address.
   */
  makeCertificate(): void {
    const { cert, key } = this;
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        // RSA, as most CA-issued certificates: with an RSA key, suites without forward secrecy
        // (RSA key exchange) could be negotiated, so the TLS test can see whether nginx offers them.
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '2',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost,IP:127.0.0.1',
        '-keyout',
        key,
        '-out',
        cert,
      ],
      { stdio: 'ignore' },
    );
  }

  /** deploy/nginx/ros.conf.template filled in, inside a minimal nginx.conf of this run's folder. */
  writeNginxConfig(): string {
    const { cert, key } = this;
    const values: Record<string, string> = {
      ROS_SERVER_NAME: 'localhost',
      ROS_HTTPS_PORT: String(this.httpsPort),
      ROS_HTTP_PORT: String(this.httpPort),
      ROS_TLS_CERT: cert,
      ROS_TLS_KEY: key,
      ROS_UPSTREAMS: this.instances
        .map((i) => `server 127.0.0.1:${i.port} max_fails=1 fail_timeout=2s;`)
        .join('\n    '),
      ROS_INTAKE_ALLOW: '127.0.0.1',
      ROS_CONSOLE_ALLOW: 'allow 127.0.0.1;',
      // Self-signed: its own issuer. It names no OCSP responder, so nginx staples nothing.
      ROS_TLS_TRUSTED: cert,
      ROS_RESOLVER: '127.0.0.1',
      ...this.opts.nginx,
    };
    const template = readFileSync(join(repo, 'deploy/nginx/ros.conf.template'), 'utf8');
    const site = template.replace(/^(?!\s*#).*$/gm, (line) =>
      line.replace(/\$\{([A-Z_]+)\}/g, (_, name: string) => {
        const v = values[name];
        if (v === undefined) throw new Error(`nginx template: no value for ${name}`);
        return v;
      }),
    );
    writeFileSync(join(this.dir, 'ros.conf'), this.opts.site ? this.opts.site(site) : site);
    const tmp = join(this.dir, 'nginx-tmp');
    mkdirSync(tmp, { recursive: true });
    const main = `
user root;
daemon off;
worker_processes 1;
pid ${this.dir}/nginx.pid;
error_log ${this.dir}/nginx-error.log warn;
events { worker_connections 512; }
http {
    access_log ${this.dir}/nginx-access.log;
    client_body_temp_path ${tmp}/body;
    proxy_temp_path ${tmp}/proxy;
    fastcgi_temp_path ${tmp}/fastcgi;
    uwsgi_temp_path ${tmp}/uwsgi;
    scgi_temp_path ${tmp}/scgi;
    include ${this.dir}/ros.conf;
}
`;
    const file = join(this.dir, 'nginx.conf');
    writeFileSync(file, main);
    return file;
  }

  async startNginx(): Promise<void> {
    const conf = this.writeNginxConfig();
    this.nginx = spawn('nginx', ['-c', conf, '-p', this.dir], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    this.nginx.stderr?.on('data', (b: Buffer) => {
      err += b.toString();
    });
    const until = Date.now() + 10000;
    while (Date.now() < until) {
      if (this.nginx.exitCode !== null) throw new Error(`nginx exited: ${err}`);
      try {
        execFileSync('bash', ['-c', `exec 3<>/dev/tcp/127.0.0.1/${this.httpsPort}`], { stdio: 'ignore' });
        return;
      } catch {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    throw new Error(`nginx did not listen on ${this.httpsPort}: ${err}`);
  }

  /** Database, both instances started at the same moment, nginx. */
  async start(): Promise<void> {
    this.makeCertificate();
    await this.createDatabase();
    for (const i of this.instances) i.start();
    await Promise.all(this.instances.map((i) => i.ready()));
    await this.startNginx();
  }

  /**
   * For a failed test's output (CI prints only the console): each instance's last log lines
   * (message, route, status; the logs hold no personal data) and the tail of nginx's error log.
   */
  describe(lines = 25): string {
    const out: string[] = [];
    for (const i of this.instances) {
      out.push(`--- instance ${i.name} (port ${i.port}, exit ${i.exitCode ?? 'running'}):`);
      for (const l of i.logs.slice(-lines)) {
        const route = l.req ? ` ${l.req.method} ${l.req.path}` : '';
        const status = l.res?.statusCode ? ` -> ${l.res.statusCode}` : '';
        const err = l.err ? ` ${JSON.stringify(l.err).slice(0, 300)}` : '';
        out.push(
          `  ${String(l.msg ?? '')
            .trim()
            .slice(0, 300)}${route}${status}${err}`,
        );
      }
    }
    try {
      const log = readFileSync(join(this.dir, 'nginx-error.log'), 'utf8').trim().split('\n');
      out.push('--- nginx error log:', ...log.slice(-lines).map((l) => `  ${l}`));
    } catch {
      out.push('--- nginx error log: none');
    }
    return out.join('\n');
  }

  /** One GET through nginx (TLS, this run's certificate); its status, or 0 when it failed. */
  viaProxy(path: string): Promise<number> {
    return new Promise((done) => {
      const req = httpsGet(
        {
          host: '127.0.0.1',
          port: this.httpsPort,
          path,
          servername: 'localhost',
          ca: readFileSync(this.cert),
          headers: { host: `localhost:${this.httpsPort}` },
          timeout: 5000,
        },
        (res) => {
          res.resume();
          res.on('end', () => done(res.statusCode ?? 0));
        },
      );
      req.on('timeout', () => req.destroy());
      req.on('error', () => done(0));
    });
  }

  /**
   * Waits until nginx sends requests to the instance again: after a refused or reset connection
   * it leaves the instance out for fail_timeout (2 s). Until then a request whose other instance
   * fails finds "no live upstreams" (a 502), so a test that kills the other instance next must
   * wait for this. The instance answers one of the GETs sent through the proxy meanwhile.
   */
  async untilProxySendsTo(instance: Instance, timeoutMs = 10000): Promise<void> {
    const until = Date.now() + timeoutMs;
    const before = instance.answered('GET', '/api/ros/metadata');
    while (Date.now() < until) {
      // Only a probe: whether a request was lost is the tests' own count.
      await this.viaProxy('/api/ros/metadata');
      if (instance.answered('GET', '/api/ros/metadata') > before) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`nginx did not send to instance ${instance.name} within ${timeoutMs} ms`);
  }

  /** Starts a stopped instance again: ready, and back in nginx's rotation. */
  async restart(instance: Instance): Promise<void> {
    instance.start();
    await instance.ready();
    await this.untilProxySendsTo(instance);
  }

  /** Starts again every instance a test stopped or killed. */
  async restartDead(): Promise<void> {
    for (const i of this.instances) if (i.exitCode !== undefined) await this.restart(i);
  }

  /** The one instance that took requests for this method and route pattern. */
  tookIt(method: string, path: string): Instance {
    const took = this.instances.filter((i) => i.answered(method, path) > 0);
    if (took.length !== 1) throw new Error(`${method} ${path} was taken by ${took.length} instances`);
    return took[0] as Instance;
  }

  other(instance: Instance): Instance {
    const other = this.instances.find((i) => i !== instance);
    if (!other) throw new Error('no other instance');
    return other;
  }

  async stop(): Promise<void> {
    if (this.nginx && this.nginx.exitCode === null) {
      const exited = new Promise((r) => this.nginx?.once('exit', r));
      this.nginx.kill('SIGQUIT');
      await exited;
    }
    await Promise.all(this.instances.map((i) => i.stop()));
    const c = new pg.Client({ connectionString: PG_ADMIN_URL });
    await c.connect();
    await c.query(`drop database if exists ${this.database} with (force)`);
    await c.end();
    if (process.env.ROS_TOPOLOGY_KEEP) console.log(`kept ${this.dir}`);
    else rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A failed test prints what the instances and nginx said (CI shows only the console). */
export function printOnFailure(cluster: () => Cluster | undefined): void {
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixtures from a pattern
  test.afterEach(async ({}, testInfo) => {
    const c = cluster();
    if (testInfo.status !== testInfo.expectedStatus && c) console.log(c.describe());
  });
}

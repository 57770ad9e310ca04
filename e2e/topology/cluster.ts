import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
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
    while (Date.now() < until) {
      if (this.exitCode !== undefined) {
        throw new Error(`${this.name} exited with ${this.exitCode}: ${this.stderr().slice(-2000)}`);
      }
      try {
        const r = await fetch(`${this.url}/readyz`);
        if (r.status === 200) return;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`${this.name} not ready within ${timeoutMs} ms`);
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
  readonly httpsPort = 4443 + Math.floor(Math.random() * 500);
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
      ROS_DEMO_DATA: 'true',
      ROS_REFERENCE_DOWNLOAD: 'false',
      NODE_EXTRA_CA_CERTS: join(this.dir, 'tls.crt'),
      ROS_SHUTDOWN_GRACE_SECONDS: '2',
      LOG_LEVEL: 'info',
      ...opts.env,
    };
    const base = 4300 + Math.floor(Math.random() * 500) * 2;
    this.instances = ['a', 'b'].map(
      (name, i) => new Instance(name, base + i, { ...shared, ROS_DATA_DIR: join(this.dir, `data-${name}`) }),
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
      ROS_HTTP_PORT: String(this.httpsPort + 1000),
      ROS_TLS_CERT: cert,
      ROS_TLS_KEY: key,
      ROS_UPSTREAMS: this.instances
        .map((i) => `server 127.0.0.1:${i.port} max_fails=1 fail_timeout=2s;`)
        .join('\n    '),
      ROS_INTAKE_ALLOW: '127.0.0.1',
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

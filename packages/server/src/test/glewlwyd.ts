import { type ChildProcess, spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import SQLite from 'better-sqlite3';

/**
 * Debian's glewlwyd (package glewlwyd, 2.7.5), an OpenID provider written in C that nobody here
 * wrote, for the optional interop test (nia/glewlwyd.test.ts, docs/nia.md "Interop tests"): a
 * SQLite database from the package's own schema, a config file written here, then through its
 * admin API an OIDC plugin (RS256, a key made here), a confidential client and a user with the
 * standard claims given_name, family_name, birthdate.
 */

export const GLEWLWYD = '/usr/bin/glewlwyd';
const SCHEMA = '/usr/share/doc/glewlwyd/database/init.sqlite3.sql.gz';
export const glewlwydInstalled = () => existsSync(GLEWLWYD) && existsSync(SCHEMA);

// GUID-shaped id, a secret with "-._~": glewlwyd compares HTTP Basic's id and secret literally,
// so they must go out as they are (RFC 6749 Appendix B; nia/clientAuth.ts).
export const GLW_CLIENT = {
  id: 'a3e1f7c2-58d4-4b9e-8c06-1d2e3f405162',
  secret: 'glw-Client.Secret_0123456789~abcdefXYZ',
};
export const GLW_USER = {
  username: 'bohumila',
  password: 'glwUserPassword42',
  given_name: 'Bohumila',
  family_name: 'Zástěrová',
  birthdate: '1961-11-29',
};

export interface Glewlwyd {
  /** The OIDC plugin's issuer, `http://127.0.0.1:<port>/api/oidc`. */
  issuer: string;
  /** Registers the portal as a client (its redirect and post-logout URIs). */
  addClient(portal: string): Promise<void>;
  /**
   * The user's part of a sign-in, as glewlwyd's login page does it: signs in with the password,
   * grants the client the scope, and follows the authorization URL (`g_continue` says the login
   * asked for by prompt=login has just happened). Answers the redirect back to the portal.
   */
  authorize(authUrl: string): Promise<string>;
  log(): string;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      s.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

class Jar {
  private cookies = new Map<string, string>();
  header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
  store(res: Response) {
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      this.cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
  }
}

export async function startGlewlwyd(dir: string): Promise<Glewlwyd> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const dbFile = join(dir, 'glewlwyd.db');
  const db = new SQLite(dbFile);
  db.exec(gunzipSync(readFileSync(SCHEMA)).toString('utf8'));
  // The user module keeps the claims' properties (its data-format), read at start.
  const row = db
    .prepare("SELECT gumi_parameters AS p FROM g_user_module_instance WHERE gumi_name = 'database'")
    .get() as { p: string };
  const params = JSON.parse(row.p) as { 'data-format': Record<string, unknown> };
  for (const name of ['given_name', 'family_name', 'birthdate']) {
    params['data-format'][name] = {
      multiple: false,
      read: true,
      write: true,
      'profile-read': true,
      'profile-write': false,
    };
  }
  db.prepare("UPDATE g_user_module_instance SET gumi_parameters = ? WHERE gumi_name = 'database'").run(
    JSON.stringify(params),
  );
  db.close();
  // The package's own config with this run's port, address, database and console log.
  const conf = readFileSync('/etc/glewlwyd/glewlwyd.conf', 'utf8')
    .replace(/^port=.*$/m, `port=${port}`)
    .replace(/^external_url=.*$/m, `external_url="${base}"`)
    .replace(/^log_mode=.*$/m, 'log_mode="file"')
    .replace(/^log_file=.*$/m, `log_file="${join(dir, 'glewlwyd.log')}"`)
    .replace(/^log_level=.*$/m, 'log_level="INFO"')
    .replace(/^@include .*$/m, `database = { type = "sqlite3" path = "${dbFile}" };`);
  const confFile = join(dir, 'glewlwyd.conf');
  writeFileSync(confFile, conf);
  let output = '';
  const child: ChildProcess = spawn(GLEWLWYD, ['-c', confFile], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (b: Buffer) => {
    output += b.toString();
  });
  child.stderr?.on('data', (b: Buffer) => {
    output += b.toString();
  });
  const exited = new Promise((r) => child.once('exit', r));

  const admin = new Jar();
  const call = async (method: string, path: string, body?: unknown, jar = admin) => {
    const res = await fetch(`${base}${path}`, {
      method,
      redirect: 'manual',
      headers: { 'content-type': 'application/json', cookie: jar.header() },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    jar.store(res);
    if (res.status >= 400) throw new Error(`glewlwyd ${method} ${path}: ${res.status} ${await res.text()}`);
    return res;
  };
  for (let i = 0; ; i++) {
    try {
      await call('POST', '/api/auth/', { username: 'admin', password: 'password' });
      break;
    } catch (err) {
      if (i > 100 || child.exitCode !== null) throw new Error(`glewlwyd did not start: ${err}\n${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  await call('POST', '/api/mod/plugin/', {
    module: 'oidc',
    name: 'oidc',
    display_name: 'OIDC',
    enabled: true,
    parameters: {
      iss: `${base}/api/oidc`,
      'jwt-type': 'rsa',
      'jwt-key-size': '256',
      key: privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
      cert: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      'access-token-duration': 3600,
      'refresh-token-duration': 1209600,
      'code-duration': 600,
      'refresh-token-rolling': true,
      'allow-non-oidc': false,
      'auth-type-code-enabled': true,
      'auth-type-token-enabled': false,
      'auth-type-id-token-enabled': false,
      'auth-type-none-enabled': false,
      'auth-type-password-enabled': false,
      'auth-type-client-enabled': false,
      'auth-type-refresh-enabled': true,
      'auth-type-device-enabled': false,
      scope: [],
      'additional-parameters': [],
      claims: ['given_name', 'family_name', 'birthdate'].map((name) => ({
        name,
        'user-property': name,
        type: 'string',
        mandatory: true,
        'on-demand': false,
        scope: [],
      })),
      'service-documentation': '',
      'op-policy-uri': '',
      'op-tos-uri': '',
      'jwks-show': true,
      'jwks-x5c': [],
      'request-parameter-allow': false,
      'request-uri-allow-https-non-secure': false,
      'secret-type': 'pairwise',
      'address-claim': { type: 'no', mandatory: false },
      'name-claim': 'no',
      'name-claim-scope': [],
      'email-claim': 'no',
      'email-claim-scope': [],
      'scope-claim': 'no',
      'scope-claim-scope': [],
      'allowed-scope': ['openid'],
      'subject-type': 'public',
      'pkce-allowed': true,
      'pkce-method-plain-allowed': false,
      'introspection-revocation-allowed': false,
      'register-client-allowed': false,
      'session-management-allowed': true,
      'session-cookie-name': 'GLEWLWYD2_OIDC_SID',
      'session-cookie-expiration': 2419200,
      'front-channel-logout-allowed': false,
      'back-channel-logout-allowed': false,
      'client-pubkey-parameter': '',
      'encrypt-out-token-allow': false,
    },
  });
  await call('POST', '/api/user/', {
    username: GLW_USER.username,
    password: GLW_USER.password,
    name: `${GLW_USER.given_name} ${GLW_USER.family_name}`,
    email: '',
    scope: ['openid'],
    enabled: true,
    given_name: GLW_USER.given_name,
    family_name: GLW_USER.family_name,
    birthdate: GLW_USER.birthdate,
  });

  return {
    issuer: `${base}/api/oidc`,
    async addClient(portal) {
      await call('POST', '/api/client/', {
        client_id: GLW_CLIENT.id,
        name: 'ROS portal',
        description: '',
        confidential: true,
        password: GLW_CLIENT.secret,
        redirect_uri: [`${portal}/api/ros/sso-callback`],
        post_logout_redirect_uri: `${portal}/`,
        authorization_type: ['code', 'refresh_token'],
        // Without it glewlwyd refuses every client authentication (403 unauthorized_client).
        token_endpoint_auth_method: ['client_secret_basic'],
        scope: ['openid'],
        enabled: true,
      });
    },
    async authorize(authUrl) {
      const user = new Jar();
      await call('POST', '/api/auth/', { username: GLW_USER.username, password: GLW_USER.password }, user);
      await call('PUT', `/api/auth/grant/${GLW_CLIENT.id}`, { scope: 'openid' }, user);
      const res = await call(
        'GET',
        `${new URL(authUrl).pathname}${new URL(authUrl).search}&g_continue`,
        undefined,
        user,
      );
      const location = res.headers.get('location');
      if (res.status !== 302 || !location) throw new Error(`glewlwyd authorize: ${res.status}`);
      return location;
    },
    log: () => {
      try {
        return `${output}${readFileSync(join(dir, 'glewlwyd.log'), 'utf8')}`;
      } catch {
        return output;
      }
    },
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}

import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { type ConsoleSettings, consoleSettings, LOCAL_CONSOLE_CLIENT_SECRET } from '../console/config.js';
import { MAX_TRUSTED_PUBLIC, publicAddressesCovered } from '../http/ipRanges.js';
import { type NiaSettings, niaSettings } from '../nia/config.js';
import { type Env, settingReaders } from './readers.js';
import { guessesLog10, isKnownDigest } from './secretStrength.js';
import { estimateEntropyBits, PUBLISHED_LIST, publishedIn, publishedSecretHashes } from './secrets.js';

/**
 * Every setting the server reads, with its default. Documented in docs/configuration.md;
 * keep the two in step. Values are checked once at start; each bad value gets one line.
 */
export interface Config extends NiaSettings, ConsoleSettings {
  port: number;
  host: string;
  /** PostgreSQL connection URL; undefined = embedded SQLite in dataDir. */
  databaseUrl: string | undefined;
  dataDir: string;
  referenceDir: string | undefined;
  /** At start, download ČSÚ's current export when no reference folder is given and the built-in codebook is in use. */
  referenceDownload: boolean;
  useEid: 'YES' | 'NO';
  botCheckProvider: 'altcha' | 'recaptcha';
  recaptchaSiteKey: string;
  recaptchaSecret: string;
  recaptchaMinScore: number;
  /** reCAPTCHA's siteverify endpoint (tests point it at a local stand-in). */
  recaptchaVerifyUrl: string;
  altchaHmacKey: string;
  altchaMaxNumber: number;
  altchaExpiresSeconds: number;
  rateLimitValidityPerMinute: number;
  /** How often the validity check looks for changed certificates (ms). */
  validityRefreshMs: number;
  rateLimitSearchPerMinute: number;
  logLevel: string;
  /** Directory of the built web app; undefined = API only. */
  webDir: string | undefined;
  /**
   * Which proxies' X-Forwarded-For is believed (ROS_TRUST_PROXY): false = none (the socket's
   * address is the client), a hop count, or proxy addresses / CIDR ranges. Handed to Fastify's
   * trustProxy: the client address is the first one, counted from the socket, that no trusted
   * proxy wrote, never the client-written leftmost entry.
   */
  trustProxy: false | number | string[];
  /** IPv6 clients are limited per network of this many bits (ROS_RATE_LIMIT_IPV6_PREFIX), IPv4 per address. */
  rateLimitIpv6Prefix: number;
  /** `ROS_` variables set that are no setting (unknownSettings): warned at start, refused in production. */
  unknownSettings: string[];
  /** NODE_ENV=production: test aids default off, default secrets refused (see productionProblems). */
  production: boolean;
  /** Serve the web app's *.map files (ROS_SOURCE_MAPS; default on outside production only). */
  sourceMaps: boolean;
  /** Load the documented demo people and certificates (default on outside production only). */
  demoData: boolean;
  /** A new request is accepted at the earliest this many days before the current certificate expires. */
  renewalWindowDays: number;
  /** A second request (or duplicate request) for the same person within this many days is flagged. */
  repeatRequestDays: number;
  /** How long the PDF link of a submitted request works. */
  pdfLinkDays: number;
  /** Worker threads of the one PDF pool (services.ts); 0 = one per spare core, at most two. */
  pdfWorkers: number;
  /** The portal's public address as browsers reach it (no trailing slash): NIA redirects and cookies. */
  publicUrl: string;
  /**
   * ROS_PUBLIC_URL unset outside production: sign-in follows the loopback address the browser
   * used (127.0.0.1 or localhost, this port), see nia/publicUrl.ts.
   */
  publicUrlFollowsHost: boolean;
  /** Run the local NIA-like OpenID provider under /nia-test (development, demos, tests; never production). */
  niaTestProvider: boolean;
  /** The OpenID issuer of NIA; empty = the local provider (publicUrl + /nia-test, see nia/settings.ts). */
  niaIssuer: string;
  niaClientId: string;
  niaClientSecret: string;
  /** Scopes asked of NIA (space-separated). */
  niaScope: string;
  /** How long a NIA sign-in session lasts (minutes; a fraction only outside production, for tests). */
  sessionMinutes: number;
  /** The longest a NIA session may live from sign-in, extensions included (minutes, docs/nia.md). */
  sessionMaxMinutes: number;
  /** SMTP URL (smtp://user:pass@host:587, smtps://…); empty = .eml files in <dataDir>/outbox. */
  smtpUrl: string;
  /** Sender of the confirmation e-mails. */
  mailFrom: string;
  /** Intake (docs/intake.md): a received request's personal data is erased this many days after receipt. */
  retentionReceivedDays: number;
  /** … and a request never marked received this many days after it was submitted. */
  retentionUnreceivedDays: number;
  /** Outbox .eml files (mail bodies, with the PDF) are deleted this many days after they were written. */
  outboxKeepDays: number;
  /** How often the server's purge runs (once per instance group); 0 = never (ros-admin purge only). */
  purgeIntervalMinutes: number;
  /** Intake API calls per client address and minute. */
  rateLimitIntakePerMinute: number;
  /** Bearer token that reads GET /metrics (Prometheus); empty = no metrics are kept or served. */
  metricsToken: string;
  /**
   * After SIGTERM: how long the server says it is not ready while it still serves every request,
   * before it stops taking new connections and finishes those in flight (ms; main.ts).
   */
  shutdownGraceMs: number;
  /**
   * The key the status page's access codes are made with (docs/status.md); empty = a random key
   * made once per database (shared_secrets).
   */
  statusKey: string;
  /** Reference list and /api/docs answers per client address and minute. */
  rateLimitListsPerMinute: number;
  /** Status page look-ups per client address and minute. */
  rateLimitStatusPerMinute: number;
  /** An HTTP SMS gateway (JSON POST, docs/status.md); empty = SMS files in <dataDir>/sms-outbox. */
  smsUrl: string;
  /** Bearer token for the SMS gateway. */
  smsToken: string;
}

/**
 * Every environment variable the server reads, in docs/configuration.md's order: the one list of
 * its settings (config.test.ts checks it against that table and against the sources). A `ROS_`
 * variable not in it, nor read by the repository's other tools (OTHER_ROS_VARIABLES), is a typo
 * or a setting of another product (issue 33 item 11: `ROS_DATABASE_URL` started production on
 * SQLite): warned at every start, refused in production.
 */
export const SERVER_SETTINGS = [
  'PORT',
  'HOST',
  'DATABASE_URL',
  'ROS_DATA_DIR',
  'ROS_REFERENCE_DIR',
  'ROS_REFERENCE_DOWNLOAD',
  'ROS_USE_EID',
  'ROS_BOT_CHECK',
  'ROS_RECAPTCHA_SITE_KEY',
  'ROS_RECAPTCHA_SECRET',
  'ROS_RECAPTCHA_MIN_SCORE',
  'ROS_ALTCHA_HMAC_KEY',
  'ROS_ALTCHA_MAX_NUMBER',
  'ROS_ALTCHA_EXPIRES_SECONDS',
  'ROS_RATE_LIMIT_VALIDITY',
  'ROS_VALIDITY_REFRESH_MS',
  'ROS_PDF_WORKERS',
  'ROS_RATE_LIMIT_SEARCH',
  'ROS_METRICS_TOKEN',
  'ROS_SHUTDOWN_GRACE_SECONDS',
  'ROS_TRUST_PROXY',
  'ROS_RATE_LIMIT_IPV6_PREFIX',
  'ROS_WEB_DIR',
  'ROS_DEMO_DATA',
  'NODE_ENV',
  'ROS_SOURCE_MAPS',
  'LOG_LEVEL',
  'ROS_RECAPTCHA_VERIFY_URL',
  'ROS_RENEWAL_WINDOW_DAYS',
  'ROS_REPEAT_REQUEST_DAYS',
  'ROS_PDF_LINK_DAYS',
  'ROS_PUBLIC_URL',
  'ROS_NIA_TEST_PROVIDER',
  'ROS_NIA_ISSUER',
  'ROS_NIA_CLIENT_ID',
  'ROS_NIA_CLIENT_SECRET',
  'ROS_NIA_TOKEN_AUTH',
  'ROS_NIA_SIGNING_KEY_FILE',
  'ROS_NIA_DECRYPTION_KEY_FILE',
  'ROS_NIA_ID_TOKEN_ALGS',
  'ROS_NIA_CLOCK_TOLERANCE_SECONDS',
  'ROS_NIA_TIMEOUT_SECONDS',
  'ROS_NIA_CLAIMS',
  'ROS_NIA_SCOPE',
  'ROS_NIA_ACR',
  'ROS_SESSION_MINUTES',
  'ROS_SESSION_MAX_MINUTES',
  'ROS_SMTP_URL',
  'ROS_MAIL_FROM',
  'ROS_RETENTION_RECEIVED_DAYS',
  'ROS_RETENTION_UNRECEIVED_DAYS',
  'ROS_OUTBOX_KEEP_DAYS',
  'ROS_PURGE_INTERVAL_MINUTES',
  'ROS_RATE_LIMIT_INTAKE',
  'ROS_STATUS_KEY',
  'ROS_RATE_LIMIT_LISTS',
  'ROS_RATE_LIMIT_STATUS',
  'ROS_SMS_URL',
  'ROS_SMS_TOKEN',
  'ROS_CONSOLE',
  'ROS_CONSOLE_TEST_PROVIDER',
  'ROS_CONSOLE_ISSUER',
  'ROS_CONSOLE_CLIENT_ID',
  'ROS_CONSOLE_CLIENT_SECRET',
  'ROS_CONSOLE_SCOPE',
  'ROS_CONSOLE_ROLE_CLAIM',
  'ROS_CONSOLE_SUBJECTS',
] as const;

/**
 * `ROS_` variables of the repository's other tools, which may share an environment with the
 * server: the nginx template's (deploy/nginx) and the tests' and benches'. Never read by the server.
 */
export const OTHER_ROS_VARIABLES = [
  'ROS_UPSTREAMS',
  'ROS_SERVER_NAME',
  'ROS_TLS_CERT',
  'ROS_TLS_KEY',
  'ROS_TLS_TRUSTED',
  'ROS_RESOLVER',
  'ROS_INTAKE_ALLOW',
  'ROS_CONSOLE_ALLOW',
  'ROS_HTTP_PORT',
  'ROS_HTTPS_PORT',
  'ROS_TEST_DATABASE_URL',
  'ROS_FUZZ_RUNS',
  'ROS_E2E_PORT',
  'ROS_E2E_SHOTS',
  'ROS_E2E_TRACE',
  'ROS_TOPOLOGY_KEEP',
];

const KNOWN_VARIABLES = new Set<string>([...SERVER_SETTINGS, ...OTHER_ROS_VARIABLES]);

/** The `ROS_` variables set in `env` that nothing here reads (names only, sorted). */
export function unknownSettings(env: Env): string[] {
  return Object.keys(env)
    .filter((name) => name.startsWith('ROS_') && !KNOWN_VARIABLES.has(name))
    .sort();
}

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

export function loadConfig(env: Env = process.env, overrides: Partial<Config> = {}): Config {
  const problems: string[] = [];
  const { int, num, oneOf, bool } = settingReaders(env, problems);

  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    problems.push('DATABASE_URL must start with postgres:// or postgresql:// (unset it for embedded SQLite)');
  }
  const botCheckProvider = oneOf('ROS_BOT_CHECK', 'altcha', ['altcha', 'recaptcha'] as const);
  const recaptchaSiteKey = env.ROS_RECAPTCHA_SITE_KEY ?? '';
  const recaptchaSecret = env.ROS_RECAPTCHA_SECRET ?? '';
  if (botCheckProvider === 'recaptcha' && (!recaptchaSiteKey || !recaptchaSecret)) {
    problems.push('ROS_BOT_CHECK=recaptcha needs ROS_RECAPTCHA_SITE_KEY and ROS_RECAPTCHA_SECRET');
  }
  if (env.ROS_RECAPTCHA_VERIFY_URL && !/^https?:\/\//.test(env.ROS_RECAPTCHA_VERIFY_URL)) {
    problems.push('ROS_RECAPTCHA_VERIFY_URL must be an http(s) URL');
  }
  const altchaHmacKey = env.ROS_ALTCHA_HMAC_KEY ?? '';
  if (altchaHmacKey && altchaHmacKey.length < 32) {
    problems.push('ROS_ALTCHA_HMAC_KEY must be at least 32 characters (unset it to generate one per start)');
  }

  const production = env.NODE_ENV === 'production';
  const port = int('PORT', 8080, 0, 65535);
  const host = env.HOST || (production ? '0.0.0.0' : '127.0.0.1');
  const publicUrl = (env.ROS_PUBLIC_URL || `http://localhost:${port}`).replace(/\/+$/, '');
  if (!/^https?:\/\/[^/?#]+(\/[^?#]*)?$/.test(publicUrl)) {
    problems.push(`ROS_PUBLIC_URL="${publicUrl}" must be an http(s) URL such as https://ros.example.cz`);
  }
  // Exactly as configured (a trailing slash is part of an issuer identifier): only spaces trimmed.
  const niaIssuerRaw = (env.ROS_NIA_ISSUER ?? '').trim();
  // The local provider: on by default for development and demos only; never beside a real issuer.
  const niaTestProvider = bool('ROS_NIA_TEST_PROVIDER', !production && !niaIssuerRaw);
  if (niaTestProvider && niaIssuerRaw) {
    problems.push(
      'ROS_NIA_TEST_PROVIDER=true cannot run beside a real NIA (ROS_NIA_ISSUER is set): unset one of them',
    );
  }
  const useEid = oneOf('ROS_USE_EID', 'YES', ['YES', 'NO'] as const);
  // Without the local provider, NIA sign-in needs the real NIA (in production it is off unless
  // asked for, so production with ROS_USE_EID=YES must name NIA; ROS_USE_EID=NO runs without).
  if (!niaTestProvider && !niaIssuerRaw && (!production || useEid === 'YES')) {
    problems.push(
      production
        ? 'NIA sign-in (ROS_USE_EID=YES) needs ROS_NIA_ISSUER, ROS_NIA_CLIENT_ID and ROS_NIA_CLIENT_SECRET of the real NIA in production (or ROS_USE_EID=NO)'
        : 'ROS_NIA_TEST_PROVIDER=false needs ROS_NIA_ISSUER (and ROS_NIA_CLIENT_ID, ROS_NIA_CLIENT_SECRET) of the real NIA',
    );
  }
  if (niaIssuerRaw && !/^https?:\/\//.test(niaIssuerRaw))
    problems.push('ROS_NIA_ISSUER must be an http(s) URL');
  const nia = niaSettings(env, problems, production);
  // The authority's console and its staff sign-in (console/config.ts, docs/console-signin.md).
  const consoleAuth = consoleSettings(env, problems, production);
  const secretNeeded = nia.niaTokenAuth !== 'private_key_jwt';
  if (
    !niaTestProvider &&
    niaIssuerRaw &&
    (!env.ROS_NIA_CLIENT_ID || (secretNeeded && !env.ROS_NIA_CLIENT_SECRET))
  ) {
    problems.push(
      secretNeeded
        ? 'ROS_NIA_ISSUER needs ROS_NIA_CLIENT_ID and ROS_NIA_CLIENT_SECRET'
        : 'ROS_NIA_ISSUER needs ROS_NIA_CLIENT_ID',
    );
  }
  // Whole seconds (the cookie's Max-Age); below a minute only outside production: the browser
  // tests of the expiry warning need a session of seconds, a real one never does.
  const sessionMinutes = num('ROS_SESSION_MINUTES', 30, production ? 1 : 0.1, 1440);
  if (Math.abs(sessionMinutes * 60 - Math.round(sessionMinutes * 60)) > 1e-9) {
    problems.push('ROS_SESSION_MINUTES must be a whole number of seconds (e.g. 0.5, not 0.33)');
  }
  const smtpUrl = env.ROS_SMTP_URL ?? '';
  if (smtpUrl && !/^smtps?:\/\//.test(smtpUrl)) {
    problems.push('ROS_SMTP_URL must start with smtp:// or smtps:// (unset it for the local outbox)');
  }
  const mailFrom = env.ROS_MAIL_FROM || 'ROS <noreply@localhost>';
  const metricsToken = env.ROS_METRICS_TOKEN ?? '';
  if (metricsToken && (metricsToken.length < 32 || !/^[\x21-\x7e]+$/.test(metricsToken))) {
    problems.push('ROS_METRICS_TOKEN must be at least 32 visible ASCII characters (unset: no metrics)');
  }

  const statusKey = env.ROS_STATUS_KEY ?? '';
  if (statusKey && statusKey.length < 32) {
    problems.push(
      'ROS_STATUS_KEY must be at least 32 characters (unset it to keep a random key in the database)',
    );
  }
  const smsUrl = env.ROS_SMS_URL ?? '';
  if (smsUrl && !/^https?:\/\/[^\s]+$/.test(smsUrl)) {
    problems.push('ROS_SMS_URL must be an http:// or https:// address (unset it for the local SMS outbox)');
  }
  const smsToken = env.ROS_SMS_TOKEN ?? '';
  if (smsToken && !/^[\x21-\x7e]+$/.test(smsToken)) {
    problems.push('ROS_SMS_TOKEN must be visible ASCII characters');
  }

  const config: Config = {
    port,
    host,
    databaseUrl,
    dataDir: resolve(env.ROS_DATA_DIR || './data'),
    referenceDir: env.ROS_REFERENCE_DIR ? resolve(env.ROS_REFERENCE_DIR) : undefined,
    // Off: the plain start uses the built-in codebook, with no network (docs/reference-data.md).
    referenceDownload: bool('ROS_REFERENCE_DOWNLOAD', false),
    // YES (the spec's default): the home page offers NIA sign-in; NO opens the form without it.
    useEid,
    botCheckProvider,
    recaptchaSiteKey,
    recaptchaSecret,
    recaptchaMinScore: num('ROS_RECAPTCHA_MIN_SCORE', 0.5, 0, 1),
    recaptchaVerifyUrl: env.ROS_RECAPTCHA_VERIFY_URL || 'https://www.google.com/recaptcha/api/siteverify',
    altchaHmacKey,
    altchaMaxNumber: int('ROS_ALTCHA_MAX_NUMBER', 50000, 1000, 10000000),
    altchaExpiresSeconds: int('ROS_ALTCHA_EXPIRES_SECONDS', 600, 10, 86400),
    rateLimitValidityPerMinute: int('ROS_RATE_LIMIT_VALIDITY', 60, 1, 1_000_000_000),
    validityRefreshMs: int('ROS_VALIDITY_REFRESH_MS', 1000, 20, 600000),
    pdfWorkers: int('ROS_PDF_WORKERS', 0, 0, 8),
    rateLimitSearchPerMinute: int('ROS_RATE_LIMIT_SEARCH', 20, 1, 1_000_000_000),
    logLevel: oneOf('LOG_LEVEL', 'info', [
      'fatal',
      'error',
      'warn',
      'info',
      'debug',
      'trace',
      'silent',
    ] as const),
    webDir: env.ROS_WEB_DIR ? resolve(env.ROS_WEB_DIR) : undefined,
    trustProxy: trustProxySetting(env.ROS_TRUST_PROXY, production, problems),
    rateLimitIpv6Prefix: int('ROS_RATE_LIMIT_IPV6_PREFIX', 64, 32, 128),
    unknownSettings: unknownSettings(env),
    production,
    sourceMaps: bool('ROS_SOURCE_MAPS', !production),
    demoData: bool('ROS_DEMO_DATA', !production),
    renewalWindowDays: int('ROS_RENEWAL_WINDOW_DAYS', 90, 0, 3650),
    repeatRequestDays: int('ROS_REPEAT_REQUEST_DAYS', 30, 0, 3650),
    pdfLinkDays: int('ROS_PDF_LINK_DAYS', 30, 1, 3650),
    publicUrl,
    publicUrlFollowsHost: !env.ROS_PUBLIC_URL && env.NODE_ENV !== 'production',
    niaTestProvider,
    niaIssuer: niaIssuerRaw,
    niaClientId: env.ROS_NIA_CLIENT_ID || 'ros-portal',
    niaClientSecret: env.ROS_NIA_CLIENT_SECRET || LOCAL_NIA_CLIENT_SECRET,
    niaScope: env.ROS_NIA_SCOPE || 'openid profile email',
    ...nia,
    sessionMinutes,
    sessionMaxMinutes: Math.max(sessionMinutes, int('ROS_SESSION_MAX_MINUTES', 120, 1, 1440)),
    smtpUrl,
    mailFrom,
    retentionReceivedDays: int('ROS_RETENTION_RECEIVED_DAYS', 30, 1, 3650),
    retentionUnreceivedDays: int('ROS_RETENTION_UNRECEIVED_DAYS', 180, 1, 3650),
    outboxKeepDays: int('ROS_OUTBOX_KEEP_DAYS', 7, 1, 3650),
    purgeIntervalMinutes: int('ROS_PURGE_INTERVAL_MINUTES', 60, 0, 10080),
    rateLimitIntakePerMinute: int('ROS_RATE_LIMIT_INTAKE', 600, 1, 1_000_000_000),
    metricsToken,
    shutdownGraceMs: int('ROS_SHUTDOWN_GRACE_SECONDS', 5, 0, 120) * 1000,
    statusKey,
    rateLimitListsPerMinute: int('ROS_RATE_LIMIT_LISTS', 300, 1, 1_000_000_000),
    rateLimitStatusPerMinute: int('ROS_RATE_LIMIT_STATUS', 20, 1, 1_000_000_000),
    smsUrl,
    smsToken,
    ...consoleAuth,
    ...overrides,
  };
  if (production) problems.push(...productionProblems(config, env));
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/** proxy-addr's names for address ranges, accepted in ROS_TRUST_PROXY beside addresses and CIDRs. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * ROS_TRUST_PROXY: unset/false = no proxy; a whole number = that many proxies in front (hops,
 * outside production only); else a comma-separated list of proxy addresses, CIDR ranges (not /0)
 * or loopback/linklocal/uniquelocal. `true` used to trust every X-Forwarded-For entry (so the
 * client-written leftmost one was taken): it now means one hop outside production and is refused
 * in production, as is any hop count.
 */
function trustProxySetting(
  raw: string | undefined,
  production: boolean,
  problems: string[],
): false | number | string[] {
  const v = (raw ?? '').trim().toLowerCase();
  if (v === '' || v === 'false' || v === '0' || v === 'no') return false;
  // In production only named proxies: a hop count believes whatever a client that reaches the
  // server around the proxy writes (issue 21: 60 of 60 spoofed addresses got through).
  const named = "name the proxies' addresses or CIDR ranges (ROS_TRUST_PROXY=10.0.0.5,10.0.1.0/24)";
  if (v === 'true' || v === 'yes') {
    if (production) problems.push(`ROS_TRUST_PROXY=true is ambiguous in production: ${named}`);
    return 1;
  }
  if (/^\d+$/.test(v)) {
    if (production) {
      problems.push(`ROS_TRUST_PROXY=${v} is a hop count, refused in production: ${named}`);
    } else if (Number(v) > 10) problems.push(`ROS_TRUST_PROXY="${raw}": a hop count must be from 1 to 10`);
    return Number(v);
  }
  const entries = v.split(',').map((e) => e.trim());
  // (A /0 gets its own line below.)
  if (production && !entries.some((e) => /\/0+$/.test(e))) {
    // Judged by effect, however written (issue 33 item 4: `0.0.0.0/1,128.0.0.0/1` and `::ffff:0:0/96`
    // trusted every IPv4 client): a set covering more public space than a proxy fleet's is refused.
    const covered = publicAddressesCovered(entries);
    if (covered.v4 > MAX_TRUSTED_PUBLIC.v4 || covered.v6 > MAX_TRUSTED_PUBLIC.v6) {
      problems.push(
        `ROS_TRUST_PROXY="${raw}" trusts public address space (more than a /24 of IPv4 or a /64 of IPv6 in all): any client there could choose the address it is limited under; ${named}`,
      );
    }
  }
  for (const e of entries) {
    const [addr = '', bits, ...rest] = e.split('/');
    const family = isIP(addr);
    if (bits !== undefined && /^0+$/.test(bits)) {
      // proxy-addr refuses /0 with a raw error; and it would believe every address.
      problems.push(`ROS_TRUST_PROXY="${raw}": "${e}" would trust every address: ${named}`);
      continue;
    }
    const okBits = bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (family === 6 ? 128 : 32));
    if (!(PROXY_RANGE_NAMES.includes(e) || (family !== 0 && okBits && rest.length === 0))) {
      problems.push(
        `ROS_TRUST_PROXY="${raw}": "${e}" is not an IP address, a CIDR range (10.0.0.0/8) or one of ${PROXY_RANGE_NAMES.join(', ')}`,
      );
    }
  }
  return entries;
}

/** The NIA client secret the local provider accepts: never good enough for the real NIA. */
export const LOCAL_NIA_CLIENT_SECRET = 'ros-portal-local-secret';

/**
 * What production (NODE_ENV=production) refuses: secrets that are missing or the built-in
 * defaults, and settings whose meaning is ambiguous. One line each.
 */
function productionProblems(c: Config, env: Env): string[] {
  const problems: string[] = [];
  for (const name of c.unknownSettings) problems.push(unknownSettingLine(name));
  if (c.botCheckProvider === 'altcha' && !env.ROS_ALTCHA_HMAC_KEY) {
    problems.push(
      'ROS_ALTCHA_HMAC_KEY is required in production with ROS_BOT_CHECK=altcha (a random key, e.g. `openssl rand -hex 32`, the same on every process)',
    );
  }
  // (Missing NIA client settings are refused in every environment, above.)
  if (c.niaIssuer && env.ROS_NIA_CLIENT_SECRET === LOCAL_NIA_CLIENT_SECRET) {
    problems.push(
      'ROS_NIA_CLIENT_SECRET is the built-in local test secret: production needs the one NIA issued',
    );
  }
  if (!env.ROS_PUBLIC_URL || !c.publicUrl.startsWith('https://')) {
    problems.push(
      `ROS_PUBLIC_URL${env.ROS_PUBLIC_URL ? `="${c.publicUrl}"` : ' (unset)'} must be the portal's https:// address in production (e.g. https://ros.example.cz)`,
    );
  }
  if (c.smsUrl && !env.ROS_SMS_TOKEN) {
    problems.push('ROS_SMS_URL needs ROS_SMS_TOKEN in production (the bearer token the SMS gateway issued)');
  }
  if (c.smsUrl && !c.smsUrl.startsWith('https://')) {
    problems.push('ROS_SMS_URL must be an https:// address in production');
  }
  if (!c.statusKey) {
    problems.push(
      "ROS_STATUS_KEY is required in production (a random key, e.g. `openssl rand -hex 32`, the same on every instance): without it the status page's codes are made with a key kept in the database, so a copy of the database can make them",
    );
  }
  if (c.botCheckProvider === 'altcha' && c.altchaMaxNumber < ALTCHA_MIN_WORK) {
    problems.push(
      `ROS_ALTCHA_MAX_NUMBER=${c.altchaMaxNumber} makes a proof of work that costs nothing: production needs at least ${ALTCHA_MIN_WORK} (default 50000)`,
    );
  }
  if (c.botCheckProvider === 'recaptcha' && !c.recaptchaVerifyUrl.startsWith('https://')) {
    problems.push(
      'ROS_RECAPTCHA_VERIFY_URL must be an https:// address in production (the reCAPTCHA secret is sent to it)',
    );
  }
  // An http:// NIA issuer is refused with the other NIA settings (nia/config.ts).
  problems.push(...secretProblems(c, env));
  return problems;
}

/** Bits a key the portal signs or checks with must have (estimated, config/secrets.ts). */
export const KEY_MIN_BITS = 128;
/** An issued secret (NIA's, Google's): at least this long and this many bits. */
export const ISSUED_SECRET_MIN_LENGTH = 16;
const ISSUED_SECRET_MIN_BITS = 64;
/**
 * A key not made of hex digits must take zxcvbn about a power of ten of guesses per character, as
 * a generated one does (at least this share of its length): words, keyboard walks, dates and
 * repeats take far fewer (config/secretStrength.ts).
 */
const KEY_MIN_GUESSES_PER_CHAR = 0.9;
/** Guesses (power of ten, zxcvbn) an issued secret or a password needs: about 46 bits. */
const PASSWORD_MIN_GUESSES_LOG10 = 14;
/** The least ALTCHA work production accepts (ROS_ALTCHA_MAX_NUMBER). */
export const ALTCHA_MIN_WORK = 20000;

export type SecretKind = 'key' | 'issued' | 'password';

/** Why a secret's value is refused in production, or undefined (config/secrets.ts, config/secretStrength.ts). */
export function secretWeakness(
  value: string,
  kind: SecretKind,
  published: Set<string> = new Set(),
): string | undefined {
  const bits = estimateEntropyBits(value);
  if (kind === 'issued' && value.length < ISSUED_SECRET_MIN_LENGTH) {
    return `is too short (${value.length} characters): production needs the secret that was issued (at least ${ISSUED_SECRET_MIN_LENGTH} characters)`;
  }
  if (isKnownDigest(value)) {
    return 'is the digest of an empty or common value, which anyone can compute: use a random key, e.g. `openssl rand -hex 32`';
  }
  if (kind === 'key' && bits < KEY_MIN_BITS) {
    return `is too easy to guess (about ${bits} bits estimated, production needs ${KEY_MIN_BITS}): use a random key, e.g. \`openssl rand -hex 32\``;
  }
  if (kind === 'issued' && bits < ISSUED_SECRET_MIN_BITS) {
    return `is too easy to guess (about ${bits} bits estimated): use the secret that was issued`;
  }
  if (publishedIn(value, published)) {
    return "appears in this repository's files (also in other case or with other punctuation), which anyone can read: use a secret of your own";
  }
  // Hex digits hold no words to find: config/secrets.ts's estimate (runs, repeats) judges them alone.
  if (kind === 'key' && !/^[0-9a-f]+$/i.test(value)) {
    const guesses = guessesLog10(value);
    if (guesses < KEY_MIN_GUESSES_PER_CHAR * value.length) {
      return `is made up, not generated (words, keyboard rows, dates or repeats: about 10^${Math.floor(guesses)} guesses for ${value.length} characters): use a random key, e.g. \`openssl rand -hex 32\``;
    }
  }
  if (kind !== 'key' && guessesLog10(value) < PASSWORD_MIN_GUESSES_LOG10) {
    return `is too easy to guess (about 10^${Math.floor(guessesLog10(value))} guesses by zxcvbn, production needs 10^${PASSWORD_MIN_GUESSES_LOG10}): ${kind === 'issued' ? 'use the secret that was issued' : 'use a long random password'}`;
  }
  return undefined;
}

/**
 * Production's checks of the secrets' values: too short, too guessable (estimated entropy and
 * zxcvbn), a digest of nothing, published in this repository, or one value used for two
 * purposes. One line per secret, naming the setting, never the value.
 */
function secretProblems(c: Config, env: Env): string[] {
  const secrets: Array<{ name: string; value: string; kind: SecretKind }> = [];
  const add = (name: string, value: string | undefined, kind: SecretKind) => {
    if (value) secrets.push({ name, value, kind });
  };
  if (c.botCheckProvider === 'altcha') add('ROS_ALTCHA_HMAC_KEY', env.ROS_ALTCHA_HMAC_KEY, 'key');
  else add('ROS_RECAPTCHA_SECRET', c.recaptchaSecret, 'issued');
  add('ROS_METRICS_TOKEN', c.metricsToken, 'key');
  add('ROS_STATUS_KEY', c.statusKey, 'key');
  add('ROS_SMS_TOKEN', c.smsToken, 'issued');
  if (c.niaIssuer && env.ROS_NIA_CLIENT_SECRET !== LOCAL_NIA_CLIENT_SECRET)
    add('ROS_NIA_CLIENT_SECRET', env.ROS_NIA_CLIENT_SECRET, 'issued');
  // (The local test secret has its own line: console/config.ts.)
  if (c.consoleEnabled && c.consoleIssuer && env.ROS_CONSOLE_CLIENT_SECRET !== LOCAL_CONSOLE_CLIENT_SECRET)
    add('ROS_CONSOLE_CLIENT_SECRET', env.ROS_CONSOLE_CLIENT_SECRET, 'issued');
  add('the password in DATABASE_URL', urlPassword(c.databaseUrl), 'password');
  add('the password in ROS_SMTP_URL', urlPassword(c.smtpUrl), 'password');
  if (secrets.length === 0) return [];

  const published = publishedSecretHashes();
  if (!published) {
    return [
      `cannot check the secrets against the repository's files: ${PUBLISHED_LIST} is missing (build with npm run build)`,
    ];
  }
  const problems: string[] = [];
  for (const [i, { name, value, kind }] of secrets.entries()) {
    // One value, two purposes: whoever learns it for one (a gateway, a log of the other) holds both.
    const first = secrets.findIndex((s) => s.value === value);
    if (first < i) {
      problems.push(
        `${name} is the same value as ${secrets[first]?.name}: each purpose needs a secret of its own`,
      );
      continue;
    }
    const why = secretWeakness(value, kind, published);
    if (why) problems.push(`${name} ${why}`);
  }
  return problems;
}

/** The password of a URL (decoded), if any. */
function urlPassword(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return decodeURIComponent(new URL(url).password) || undefined;
  } catch {
    return undefined;
  }
}

/** What start-up says of a `ROS_` variable that is no setting (its name only, never its value). */
function unknownSettingLine(name: string): string {
  return `${name} is not a setting of this server and is ignored (a typo? docs/configuration.md lists every setting): correct or unset it; production refuses to start with it`;
}

/**
 * Loud warnings logged at every start: `ROS_` variables that are no setting (in every
 * environment), and test aids switched on in production on purpose (outside production they are
 * the demo's defaults and say nothing).
 */
export function startWarnings(c: Config): string[] {
  const w: string[] = c.unknownSettings.map((name) => `WARNING: ${unknownSettingLine(name)}`);
  if (!c.production) return w;
  if (c.niaTestProvider) {
    w.push(
      'SECURITY WARNING: the local NIA test provider is ON in production (ROS_NIA_TEST_PROVIDER=true): anyone can sign in as a test identity. Switch it off on a public server.',
    );
  }
  if (c.consoleTestProvider) {
    w.push(
      'SECURITY WARNING: the local staff test provider of the console is ON in production (ROS_CONSOLE_TEST_PROVIDER=on): anyone can sign in to /urad as a test clerk or administrator. Switch it off on a public server.',
    );
  }
  if (c.demoData) {
    w.push(
      'SECURITY WARNING: demo data is ON in production (ROS_DEMO_DATA=true): demo people and certificates are loaded and answered. Switch it off on a public server.',
    );
  }
  if (c.sourceMaps) {
    w.push(
      "WARNING: source maps are served in production (ROS_SOURCE_MAPS=true): the web app's sources are public.",
    );
  }
  return w;
}

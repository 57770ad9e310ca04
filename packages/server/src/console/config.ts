import type { Env } from '../config/readers.js';
import { isStaffRole, type StaffRole } from './staff.js';

/**
 * The console's sign-in settings (docs/configuration.md, docs/console-signin.md), read by
 * config/config.ts. Each bad value gets one line in `problems`, in every environment; production adds
 * its own lines (missing provider settings, an http:// issuer, the local test secret).
 */
export interface ConsoleSettings {
  /** ROS_CONSOLE: the console at /urad with its sign-in (default on outside production only). */
  consoleEnabled: boolean;
  /** The local staff provider under /urad-test (ROS_CONSOLE_TEST_PROVIDER; only while the console is on). */
  consoleTestProvider: boolean;
  /** The authority's OpenID issuer, exactly as its discovery says; empty = the local provider. */
  consoleIssuer: string;
  consoleClientId: string;
  consoleClientSecret: string;
  /** Scopes asked of the provider (space-separated, `openid` among them). */
  consoleScope: string;
  /** The claim that carries the role (a string or an array of reader/clerk/admin; the highest wins). */
  consoleRoleClaim: string;
  /** ROS_CONSOLE_SUBJECTS: subject -> role; when set it decides the role instead of the claim. */
  consoleSubjects: ReadonlyMap<string, StaffRole> | null;
}

/** The client secret the local staff provider accepts: never good enough for a real provider. */
export const LOCAL_CONSOLE_CLIENT_SECRET = 'ros-console-local-secret';
export const DEFAULT_CONSOLE_CLIENT_ID = 'ros-console';
export const DEFAULT_ROLE_CLAIM = 'ros_role';
export const DEFAULT_CONSOLE_SCOPE = 'openid profile';

/** A staff session ends after this long without a request (idle). */
export const CONSOLE_IDLE_MINUTES = 30;
/** … and this long after its sign-in, however busy (absolute). */
export const CONSOLE_ABSOLUTE_HOURS = 10;

/** A claim name: visible ASCII, no separators of a list. */
const CLAIM_NAME = /^[\x21-\x2b\x2d-\x3c\x3e-\x7e]{1,200}$/;

/** on/off (also true/false, yes/no, 1/0). */
function onOff(name: string, raw: string | undefined, def: boolean, problems: string[]): boolean {
  const v = raw?.trim().toLowerCase();
  if (!v) return def;
  if (['on', 'true', 'yes', '1'].includes(v)) return true;
  if (['off', 'false', 'no', '0'].includes(v)) return false;
  problems.push(`${name}="${raw}" must be on or off`);
  return def;
}

/** `sub1=clerk,sub2=admin`: unset or empty = null (the claim decides). */
function subjectsSetting(raw: string | undefined, problems: string[]): Map<string, StaffRole> | null {
  if (!raw?.trim()) return null;
  const out = new Map<string, StaffRole>();
  for (const part of raw.split(',')) {
    const entry = part.trim();
    if (!entry) continue;
    const eq = entry.lastIndexOf('=');
    const subject = entry.slice(0, eq).trim();
    const role = entry.slice(eq + 1).trim();
    if (eq < 1 || !subject || subject.length > 114 || !isStaffRole(role)) {
      // The line names the entry's shape, not the subject (a staff member's identifier).
      problems.push(
        'ROS_CONSOLE_SUBJECTS: every entry must be subject=role with a role of reader, clerk or admin and a subject of at most 114 characters (e.g. 5f0c…=clerk)',
      );
      return out;
    }
    out.set(subject, role);
  }
  return out;
}

export function consoleSettings(env: Env, problems: string[], production: boolean): ConsoleSettings {
  const consoleEnabled = onOff('ROS_CONSOLE', env.ROS_CONSOLE, !production, problems);
  // Exactly as configured (a trailing slash is part of an issuer identifier): only spaces trimmed.
  const consoleIssuer = (env.ROS_CONSOLE_ISSUER ?? '').trim();
  // Like ROS_NIA_TEST_PROVIDER: on by default outside production without a real issuer; never
  // beside one; in production only when set (with a SECURITY WARNING at every start, config/config.ts).
  const testProvider = onOff(
    'ROS_CONSOLE_TEST_PROVIDER',
    env.ROS_CONSOLE_TEST_PROVIDER,
    !production && !consoleIssuer,
    problems,
  );
  if (testProvider && consoleIssuer) {
    problems.push(
      'ROS_CONSOLE_TEST_PROVIDER=on cannot run beside the authority’s provider (ROS_CONSOLE_ISSUER is set): unset one of them',
    );
  }
  const consoleTestProvider = consoleEnabled && testProvider;
  if (consoleIssuer && !/^https?:\/\/[^\s]+$/.test(consoleIssuer)) {
    problems.push('ROS_CONSOLE_ISSUER must be an http(s) URL');
  } else if (production && consoleIssuer && !consoleIssuer.startsWith('https://')) {
    problems.push(`ROS_CONSOLE_ISSUER="${consoleIssuer}" must be an https:// URL in production`);
  }
  if (consoleEnabled && !consoleTestProvider) {
    // The console signs staff in through the authority's provider only: one line per missing setting.
    const why = production
      ? 'in production with ROS_CONSOLE=on (or ROS_CONSOLE=off)'
      : 'with ROS_CONSOLE_TEST_PROVIDER=off (or ROS_CONSOLE=off)';
    if (!consoleIssuer)
      problems.push(
        `ROS_CONSOLE_ISSUER is required ${why}: the OpenID issuer of the authority's identity provider`,
      );
    if (!env.ROS_CONSOLE_CLIENT_ID)
      problems.push(
        `ROS_CONSOLE_CLIENT_ID is required ${why}: the client id the provider issued to the console`,
      );
    if (!env.ROS_CONSOLE_CLIENT_SECRET)
      problems.push(
        `ROS_CONSOLE_CLIENT_SECRET is required ${why}: the client secret the provider issued to the console`,
      );
  }
  if (
    production &&
    consoleEnabled &&
    consoleIssuer &&
    env.ROS_CONSOLE_CLIENT_SECRET === LOCAL_CONSOLE_CLIENT_SECRET
  ) {
    problems.push(
      'ROS_CONSOLE_CLIENT_SECRET is the built-in local test secret: production needs the one the provider issued',
    );
  }
  const consoleRoleClaim = env.ROS_CONSOLE_ROLE_CLAIM?.trim() || DEFAULT_ROLE_CLAIM;
  if (!CLAIM_NAME.test(consoleRoleClaim)) {
    problems.push(
      `ROS_CONSOLE_ROLE_CLAIM="${consoleRoleClaim}" must be a claim name (visible ASCII without , or =, e.g. ros_role or roles)`,
    );
  }
  const consoleScope = (env.ROS_CONSOLE_SCOPE?.trim() || DEFAULT_CONSOLE_SCOPE).replace(/\s+/g, ' ');
  if (!consoleScope.split(' ').includes('openid')) {
    problems.push(`ROS_CONSOLE_SCOPE="${consoleScope}" must include openid`);
  }
  return {
    consoleEnabled,
    consoleTestProvider,
    consoleIssuer,
    consoleClientId: env.ROS_CONSOLE_CLIENT_ID || DEFAULT_CONSOLE_CLIENT_ID,
    consoleClientSecret: env.ROS_CONSOLE_CLIENT_SECRET || LOCAL_CONSOLE_CLIENT_SECRET,
    consoleScope,
    consoleRoleClaim,
    consoleSubjects: subjectsSetting(env.ROS_CONSOLE_SUBJECTS, problems),
  };
}

import type { Config } from '../config/config.js';

/**
 * In development the portal is opened as http://localhost:8080 or as http://127.0.0.1:8080;
 * cookies of one are not sent to the other, so a sign-in that starts on 127.0.0.1 and comes
 * back to the default ROS_PUBLIC_URL (localhost) would lose its session. With ROS_PUBLIC_URL
 * unset outside production (config.publicUrlFollowsHost) the sign-in uses the address the
 * browser used, but only a loopback name with this server's own port: any other Host header
 * (which anyone can send) gets the configured address. Production always uses ROS_PUBLIC_URL.
 */
const LOOPBACK = /^(localhost|127\.0\.0\.1|\[::1\])(?::(\d{1,5}))?$/i;

/** `http://<host>:<port>` when `host` (a Host header) is a loopback address of this server, else undefined. */
export function loopbackOrigin(config: Config, host: string | undefined): string | undefined {
  const m = host ? LOOPBACK.exec(host.trim()) : null;
  if (!m?.[1]) return undefined;
  const port = m[2] ? Number(m[2]) : 80;
  if (port !== config.port) return undefined;
  return `http://${m[1].toLowerCase()}:${port}`;
}

/**
 * The public address the sign-in of this request uses when it is not `config.publicUrl`
 * (development, a loopback Host), else undefined. The NIA service (nia/index.ts) keeps one
 * client and test provider per address.
 */
export function signInOrigin(config: Config, host: string | undefined): string | undefined {
  // A real NIA (ROS_NIA_ISSUER) knows one registered redirect address: never vary it.
  if (!config.publicUrlFollowsHost || config.niaIssuer) return undefined;
  const origin = loopbackOrigin(config, host);
  return !origin || origin === config.publicUrl ? undefined : origin;
}

/**
 * The settings of a portal the browser tests start (playwright.config.ts's server, and a spec's
 * own one, a11y.ts startOwnServer): the demo data and the built-in ČSÚ codebook, whatever the
 * shell has set (nothing outside the repository), limits high enough for a whole run, and a
 * small proof of work.
 */
export function e2eServerEnv(port: number, dataDir: string): Record<string, string> {
  return {
    PORT: String(port),
    HOST: '127.0.0.1',
    ROS_DATA_DIR: dataDir,
    ROS_REFERENCE_DIR: '',
    ROS_REFERENCE_DOWNLOAD: 'false',
    ROS_DEMO_DATA: 'true',
    ROS_RATE_LIMIT_VALIDITY: '100000',
    ROS_RATE_LIMIT_SEARCH: '100000',
    ROS_RATE_LIMIT_LISTS: '100000',
    ROS_ALTCHA_MAX_NUMBER: '5000',
    LOG_LEVEL: 'warn',
  };
}

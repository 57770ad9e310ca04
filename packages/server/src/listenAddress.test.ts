import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config/config.js';

/**
 * Issue 39: the development server listens on the loopback address only, unless HOST says
 * otherwise; production (behind its proxy, docs/OPERATIONS.md) keeps every interface. The plain
 * `npm start` of a fresh clone is checked on its socket in freshClone.test.ts.
 */
const production = {
  NODE_ENV: 'production',
  ROS_USE_EID: 'NO',
  ROS_PUBLIC_URL: 'https://ros.example.cz',
  ROS_ALTCHA_HMAC_KEY: randomBytes(32).toString('hex'),
  // Required in production since issue 33 (item 3); a key of its own, not the ALTCHA one.
  ROS_STATUS_KEY: randomBytes(32).toString('hex'),
};

describe('the address the server listens on', () => {
  it('outside production: the loopback address', () => {
    expect(loadConfig({}).host).toBe('127.0.0.1');
    expect(loadConfig({ NODE_ENV: 'development' }).host).toBe('127.0.0.1');
  });

  it('in production: every interface', () => {
    expect(loadConfig(production).host).toBe('0.0.0.0');
  });

  it('HOST says otherwise, in either', () => {
    expect(loadConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    expect(loadConfig({ HOST: '::1' }).host).toBe('::1');
    expect(loadConfig({ ...production, HOST: '127.0.0.1' }).host).toBe('127.0.0.1');
  });
});

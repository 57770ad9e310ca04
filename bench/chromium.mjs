/**
 * Debian's Chromium as the browser tests (e2e/chromium.ts) and the bench scripts (lighthouse,
 * profile, combobox) start it: the machine has no browser download (CHROMIUM_PATH names another
 * one). The flags: no sandbox (root in a VM), no GPU, and no calls out to Google's services, which
 * this machine's closed network refuses (and which would add their own work to a measurement).
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

// Types of chromium.mjs, for e2e/chromium.ts.
export const CHROMIUM_PATH: string;
export const CHROMIUM_FLAGS: string[];

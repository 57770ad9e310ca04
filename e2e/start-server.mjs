// Starts the built server for the browser tests on a fresh data folder.

import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';

const dataDir = process.env.ROS_DATA_DIR;
if (dataDir) rmSync(dataDir, { recursive: true, force: true });
const child = spawn(process.execPath, ['packages/server/dist/main.js'], {
  stdio: 'inherit',
  env: process.env,
});
for (const sig of ['SIGTERM', 'SIGINT']) process.on(sig, () => child.kill(sig));
child.on('exit', (code) => process.exit(code ?? 0));

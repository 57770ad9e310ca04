// What several bench scripts share.
import { createServer } from 'node:net';

/** A free TCP port on the loopback address (the OS picks it; the listener is closed again). */
export function freePort() {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.once('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => ok(port));
    });
  });
}

/** A port free on 127.0.0.1 right now: bound and released, for a server started later or for nobody. */
import { createServer } from 'node:net';

/** A port free on 127.0.0.1 right now (nothing listens on it once this resolves). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

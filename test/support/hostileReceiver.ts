/**
 * A receiver that misbehaves, for delivery tests (127.0.0.1, a port it picks): it answers `hugeBytes` of body
 * as fast as the reader takes them ('huge'), drips one byte every `dripMs` for a minute ('drip'), or redirects
 * with 307 to `redirectTo` ('redirect'). It counts what it managed to write before the sender hung up.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HostileReceiver {
  url: string;
  mode: 'huge' | 'drip' | 'redirect';
  hugeBytes: number;
  dripMs: number;
  redirectTo: string;
  /** Requests received. */
  requests: number;
  /** Body bytes handed to the socket, over every answer. */
  bytesWritten: number;
  /** Resolves once every answer begun has ended (the sender read it all or hung up). */
  settled(): Promise<void>;
  close(): Promise<void>;
}

const CHUNK = Buffer.alloc(1024 * 1024, 'x');

export async function startHostileReceiver(): Promise<HostileReceiver> {
  const open = new Set<Promise<void>>();
  const receiver: HostileReceiver = {
    url: '',
    mode: 'huge',
    hugeBytes: 600 * 1024 * 1024,
    dripMs: 200,
    redirectTo: '',
    requests: 0,
    bytesWritten: 0,
    settled: async () => void (await Promise.all([...open])),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const answer = (res: ServerResponse): Promise<void> =>
    new Promise<void>((done) => {
      res.on('close', () => done());
      if (receiver.mode === 'redirect') {
        res.writeHead(307, { location: receiver.redirectTo }).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/plain' });
      if (receiver.mode === 'drip') {
        let left = 60_000 / receiver.dripMs;
        const timer = setInterval(() => {
          if (res.destroyed || left-- <= 0) {
            clearInterval(timer);
            res.end();
            return;
          }
          res.write('x');
          receiver.bytesWritten++;
        }, receiver.dripMs);
        res.on('close', () => clearInterval(timer));
        return;
      }
      let left = receiver.hugeBytes;
      const pump = () => {
        while (left > 0 && !res.destroyed) {
          const chunk = CHUNK.subarray(0, Math.min(CHUNK.length, left));
          left -= chunk.length;
          receiver.bytesWritten += chunk.length;
          if (!res.write(chunk)) {
            res.once('drain', pump);
            return;
          }
        }
        if (left <= 0) res.end();
      };
      pump();
    });
  const server = createServer((req, res) => {
    receiver.requests++;
    req.resume();
    req.on('end', () => {
      const done = answer(res);
      open.add(done);
      void done.then(() => open.delete(done));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return receiver;
}

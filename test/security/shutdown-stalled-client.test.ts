import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { startInstance } from '../helpers/instance.js';

// CI finding: a client that holds a connection open mid-request (or never reads its answer) kept
// shutdown waiting until the hook timed out. Shutdown gives such connections a grace period, then ends them.
describe('security: a stalled client cannot hold shutdown open', () => {
  it('a request whose headers never finish is cut off after the grace period', async () => {
    const instance = await startInstance();
    const url = new URL(instance.baseUrl);
    const socket = net.connect(Number(url.port), url.hostname);
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    socket.on('error', () => undefined);
    socket.write(`GET /api/v1/me HTTP/1.1\r\nHost: ${url.host}\r\nx-api-key: ${instance.orgs[0]?.api_key ?? ''}\r\n`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = Date.now();
    await instance.close();
    expect(Date.now() - started).toBeLessThan(15_000);
    socket.destroy();
  }, 40_000);
});

import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/helpers/app.js';
import { createApiKey, createTenant } from '../../../test/helpers/factories.js';
import { connected, listen, nextOn, socketClient, SseClient } from '../../../test/helpers/realtime.js';

describe('realtime on shutdown', () => {
  it('closing the app ends open SSE streams and sockets instead of waiting for them', async () => {
    const t = await buildTestApp('pglite');
    const base = await listen(t.app);
    const tenant = await createTenant(t.app);
    const key = (await createApiKey(t.app, tenant)).key;
    const stream = await SseClient.open(base, '/api/v1/sse/alerts', { 'x-api-key': key });
    expect(stream.status).toBe(200);
    const socket = await connected(socketClient(base, key));
    const disconnected = nextOn<string>(socket, 'disconnect');
    await t.close();
    await stream.closed;
    expect(await disconnected).toBe('io server disconnect');
    expect(t.app.realtime!.hub.sseCount).toBe(0);
  });
});

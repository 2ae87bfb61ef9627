/**
 * Benchmark baseline 1, the ceiling: a bare Fastify hello-world. Nothing the service does can be
 * faster than this on the same machine, so the app's figure divided by this one shows how much of the
 * HTTP stack's capacity is left after auth, the database and serialization.
 *
 * Env: PORT (required), HOST (default 127.0.0.1).
 */
import Fastify from 'fastify';
import { listenAndServe } from './serve.js';

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));

await listenAndServe(app);

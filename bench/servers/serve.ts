import type { FastifyInstance } from 'fastify';

/**
 * Listening and shutdown shared by the benchmark's own servers (hello world, baseline): loopback only,
 * and a clean exit on SIGTERM (the database closed, the PostgreSQL pool ended).
 */
export async function listenAndServe(app: FastifyInstance, onClose?: () => Promise<void>): Promise<void> {
  const port = Number(process.env.PORT);
  if (!Number.isInteger(port) || port <= 0) throw new Error('PORT must be set to the port to listen on');
  const host = process.env.HOST ?? '127.0.0.1';
  await app.listen({ port, host });

  let closing = false;
  const stop = async () => {
    if (closing) return;
    closing = true;
    await app.close();
    await onClose?.();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
}

/**
 * What every vendor sandbox shares: a local HTTP server on 127.0.0.1 that logs each request, plays
 * queued faults (429 with Retry-After, 500, a hang, 404) before the vendor's own handler, and closes
 * cleanly with hanging requests still open. Each vendor's sandbox supplies only its API subset.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SandboxFault {
  /** Only requests to this path (e.g. '/fleet/drivers'); every path when absent. */
  path?: string;
  kind: 'rate-limit' | 'server-error' | 'hang' | 'not-found';
  /** How many requests it affects; Infinity for all. */
  times: number;
  /** For rate-limit: the Retry-After header value (seconds or an HTTP date). */
  retryAfter?: string;
}

export interface SandboxRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  authorized: boolean;
}

/** A vendor handler's answer. */
export interface SandboxReply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export interface SandboxHandlerInput {
  method: string;
  url: URL;
  headers: IncomingMessage['headers'];
  /** The request body as text ('' when none). */
  body: string;
}

export interface SandboxServerOptions {
  port?: number;
  /** Whether the request carries the vendor's credential (logged with it; the handler answers 401). */
  authorized(input: SandboxHandlerInput): boolean;
  handle(input: SandboxHandlerInput): SandboxReply | Promise<SandboxReply>;
}

export interface SandboxServer {
  url: string;
  /** Every request received, oldest first. */
  requests: SandboxRequest[];
  /** Queue a failure (see SandboxFault). */
  inject(fault: SandboxFault): void;
  close(): Promise<void>;
}

const FAULT_BODY: Record<Exclude<SandboxFault['kind'], 'hang'>, { status: number; message: string }> = {
  'rate-limit': { status: 429, message: 'Rate limit exceeded' },
  'server-error': { status: 500, message: 'Internal server error' },
  'not-found': { status: 404, message: 'Not found' },
};

export async function startSandboxServer(options: SandboxServerOptions): Promise<SandboxServer> {
  const faults: SandboxFault[] = [];
  const requests: SandboxRequest[] = [];
  const hanging = new Set<ServerResponse>();

  const send = (res: ServerResponse, r: SandboxReply): void => {
    res.writeHead(r.status, { 'content-type': 'application/json', ...(r.headers ?? {}) });
    res.end(JSON.stringify(r.body));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const input: SandboxHandlerInput = { method: req.method ?? 'GET', url: new URL(req.url ?? '/', 'http://sandbox'), headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
    const authorized = options.authorized(input);
    requests.push({ method: input.method, path: input.url.pathname, query: Object.fromEntries(input.url.searchParams), authorized });
    const fault = faults.find((f) => f.times > 0 && (f.path === undefined || f.path === input.url.pathname));
    if (fault) {
      fault.times -= 1;
      if (fault.kind === 'hang') {
        hanging.add(res);
        res.on('close', () => hanging.delete(res));
        return;
      }
      const { status, message } = FAULT_BODY[fault.kind];
      return send(res, { status, body: { message }, headers: fault.kind === 'rate-limit' && fault.retryAfter !== undefined ? { 'retry-after': fault.retryAfter } : {} });
    }
    try {
      send(res, await options.handle(input));
    } catch {
      send(res, { status: 500, body: { message: 'Sandbox handler failed' } });
    }
  };

  const server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    inject: (fault) => void faults.push({ ...fault }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

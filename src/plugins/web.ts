import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * Serves the dashboard (web/, built by Vite to web/dist) at `/`: the built files from memory, gzipped
 * once, hashed assets cached for a year, every other path answered with index.html so the dashboard's
 * own router shows the page (a reload of /drivers/drv_… works). Paths of the API, the docs, Socket.IO
 * and metrics never fall through to the dashboard: unknown ones get the spec's 404 body.
 * Without a build (`npm run build` makes one; `npm start` does it) `/` leads to the API docs instead.
 */

interface WebFile {
  body: Buffer;
  gzip: Buffer | null;
  type: string;
  etag: string;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

/** Not the dashboard's: these prefixes keep their own 404s. */
const SERVER_PATHS = /^\/(api|docs|socket\.io|metrics)(\/|$)/;

/**
 * The dashboard's document policy: scripts, styles and connections from this origin only (Vite emits no
 * inline script); inline styles for React's style attributes; data: images for the favicon.
 */
const CSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self' ws: wss:; frame-ancestors 'none'; base-uri 'self'; form-action 'self'; object-src 'none'";

function loadBuild(dir: string): Map<string, WebFile> | null {
  if (!fs.existsSync(path.join(dir, 'index.html'))) return null;
  const files = new Map<string, WebFile>();
  const walk = (sub: string) => {
    for (const entry of fs.readdirSync(path.join(dir, sub), { withFileTypes: true })) {
      const rel = path.posix.join(sub, entry.name);
      if (entry.isDirectory()) walk(rel);
      else if (entry.isFile()) {
        const body = fs.readFileSync(path.join(dir, rel));
        const type = TYPES[path.extname(entry.name)] ?? 'application/octet-stream';
        const compressible = /text|json|svg|manifest/.test(type) && body.length > 1024;
        files.set(`/${rel}`, { body, gzip: compressible ? zlib.gzipSync(body, { level: 9 }) : null, type, etag: `"${createHash('sha1').update(body).digest('base64url').slice(0, 20)}"` });
      }
    }
  };
  walk('');
  return files;
}

export function registerWeb(app: FastifyInstance, distDir: string): void {
  let build: Map<string, WebFile> | null | undefined;
  const files = () => (build === undefined ? (build = loadBuild(distDir)) : build);

  const send = (request: FastifyRequest, reply: FastifyReply, file: WebFile, cache: string) => {
    void reply.header('Content-Type', file.type).header('Cache-Control', cache).header('ETag', file.etag).header('Vary', 'Accept-Encoding');
    if (request.headers['if-none-match'] === file.etag) return reply.status(304).send();
    if (file.gzip && /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''))) {
      return reply.header('Content-Encoding', 'gzip').send(file.gzip);
    }
    return reply.send(file.body);
  };

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const urlPath = (request.url.split('?')[0] ?? '/').replace(/\/+$/, '') || '/';
    if (SERVER_PATHS.test(urlPath)) return reply.callNotFound();
    const built = files();
    if (!built) {
      if (urlPath === '/') return reply.redirect('/docs');
      return reply.callNotFound();
    }
    let decoded: string;
    try {
      decoded = decodeURIComponent(urlPath);
    } catch {
      return reply.callNotFound();
    }
    const file = built.get(decoded);
    if (file && decoded !== '/index.html') {
      return send(request, reply, file, decoded.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'public, max-age=300');
    }
    // A missing file (with an extension) is a 404, not the app: a stale asset must not get HTML.
    if (/\.[a-z0-9]+$/i.test(decoded) && decoded !== '/index.html') return reply.callNotFound();
    void reply.header('Content-Security-Policy', CSP).header('X-Content-Type-Options', 'nosniff').header('Referrer-Policy', 'same-origin');
    return send(request, reply, built.get('/index.html')!, 'no-cache');
  };

  const options = { schema: { hide: true }, config: { access: { auth: 'public' as const, rateLimit: false } } };
  app.get('/', options, handler);
  app.get('/*', options, handler);
}

// A webhook receiver that checks every delivery, with Node.js alone (no packages to install):
//   WEBHOOK_SECRET=whsec_… node examples/webhook-receiver.mjs [port]      (default 4000; any path)
// It answers 204 to a delivery whose signature and timestamp check out, 401 otherwise, and prints each
// event once (deliveries may repeat: it deduplicates on the delivery id).
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';

const secret = process.env.WEBHOOK_SECRET;
if (!secret) {
  console.error("set WEBHOOK_SECRET to the webhook's signing secret (whsec_…)");
  process.exit(2);
}
const port = Number(process.argv[2] ?? 4000);
const seen = new Set();

/** Why a delivery is not genuine, or null: a timestamp within 300 s, and the HMAC-SHA256 of "timestamp.body". */
function problem(headers, body) {
  const timestamp = String(headers['x-service-timestamp'] ?? '');
  const signature = String(headers['x-service-signature'] ?? '');
  if (!/^\d+$/.test(timestamp) || Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return 'timestamp missing or more than 300 s off';
  const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');
  const ok = signature.length === expected.length && timingSafeEqual(Buffer.from(signature), Buffer.from(expected));
  return ok ? null : 'signature does not match';
}

http
  .createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST') return res.writeHead(200, { 'content-type': 'text/plain' }).end('webhook receiver: POST deliveries here\n');
      // The signature is over the raw bytes of the body, never over JSON parsed and serialised again.
      const body = Buffer.concat(chunks);
      const why = problem(req.headers, body);
      if (why) {
        console.log(`refused a delivery: ${why}`);
        return res.writeHead(401).end();
      }
      const delivery = String(req.headers['x-service-delivery']);
      if (!seen.has(delivery)) {
        seen.add(delivery);
        const { event, id, data } = JSON.parse(body.toString('utf8'));
        console.log(`verified ${event} ${id} (delivery ${delivery})${data?.id ? `: ${data.id}` : ''}`);
      }
      res.writeHead(204).end();
    });
  })
  .listen(port, '127.0.0.1', () => console.log(`webhook receiver listening on http://127.0.0.1:${port}/`));

/**
 * Holds the service to its own OpenAPI document, with an off-the-shelf validator (openapi-backend, AJV
 * under the hood, OpenAPI 3.1): every exchange a test app serves is recorded and checked — every
 * response against the document's schema for its operation and status, and every request the service
 * accepted (2xx) against the operation's parameters and body (a request the service takes must be one the
 * document allows: a body marked required that the service does without is a finding). buildTestApp
 * (test/helpers/app.ts) attaches it to every app; a violation fails the suite when its app closes, naming
 * the exchange. The validator is made once per test process from the first app's document.
 */
import addFormatsModule from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import { OpenAPIBackend } from 'openapi-backend';

const addFormats = addFormatsModule as unknown as (ajv: unknown) => unknown;

export interface Exchange {
  method: string;
  url: string;
  headers: Record<string, string | string[]>;
  body: unknown;
  statusCode: number;
  contentType: string;
  payload: string;
}

let backend: Promise<OpenAPIBackend> | undefined;

function validatorFor(app: FastifyInstance): Promise<OpenAPIBackend> {
  backend ??= (async () => {
    // A copy: the validator dereferences the document in place.
    const definition = JSON.parse(JSON.stringify(app.swagger())) as ConstructorParameters<typeof OpenAPIBackend>[0]['definition'];
    // quick: the document itself is not re-validated here (test/e2e/openapi.test.ts looks at it); formats
    // (date-time, email, uri) are checked as the service's own validator checks them (ajv-formats).
    const api = new OpenAPIBackend({
      definition,
      strict: false,
      quick: true,
      validate: true,
      ajvOpts: { strict: false },
      customizeAjv: (ajv) => {
        addFormats(ajv);
        return ajv;
      },
    });
    return api.init();
  })();
  return backend;
}

const json = (payload: string): unknown => {
  try {
    return JSON.parse(payload) as unknown;
  } catch {
    return payload;
  }
};

/** What one exchange breaks in the document, in words (empty: nothing). */
export function violationsOf(api: OpenAPIBackend, x: Exchange): string[] {
  const [path, search = ''] = x.url.split('?') as [string, string?];
  const request = { method: x.method, path, headers: x.headers, query: search, body: x.body };
  const operation = api.matchOperation(request);
  // Not an operation of the API (the dashboard, /docs, /metrics, an unknown route): nothing to hold it to.
  if (!operation) return [];
  const where = `${x.method} ${x.url} → ${x.statusCode} (${operation.operationId ?? operation.path})`;
  const found: string[] = [];
  if (x.contentType.startsWith('application/json')) {
    const res = api.validateResponse(json(x.payload), operation, x.statusCode);
    if (!res.valid) found.push(`${where}: the response breaks the document: ${JSON.stringify(res.errors)} — body ${x.payload.slice(0, 300)}`);
  }
  if (x.statusCode >= 200 && x.statusCode < 300) {
    const req = api.validateRequest(request, operation);
    // Credentials are the auth plugin's to judge (the document says which schemes; not every header a test
    // sends), and a query parameter the operation does not define is no error (OpenAPI does not forbid
    // one; the service ignores it where it defines no query, and refuses it where its query schema does).
    const errors = (req.errors ?? []).filter(
      (e: { instancePath?: string; keyword?: string }) => !/^\/headers/.test(e.instancePath ?? '') && !(e.instancePath === '/query' && e.keyword === 'additionalProperties'),
    );
    if (errors.length > 0) found.push(`${where}: the service accepted a request the document refuses: ${JSON.stringify(errors)} — body ${JSON.stringify(x.body)?.slice(0, 300)}`);
  }
  return found;
}

/** Records every exchange of `app` and checks it; `violations()` says what broke the document so far. */
export function recordConformance(app: FastifyInstance): { violations(): Promise<string[]> } {
  const exchanges: Exchange[] = [];
  app.addHook('onSend', async (request, reply, payload) => {
    exchanges.push({
      method: request.method,
      url: request.url,
      headers: request.headers as Record<string, string | string[]>,
      body: request.body,
      statusCode: reply.statusCode,
      contentType: String(reply.getHeader('content-type') ?? ''),
      payload: typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : '',
    });
    return payload;
  });
  return {
    async violations() {
      if (exchanges.length === 0) return [];
      const api = await validatorFor(app);
      return exchanges.splice(0).flatMap((x) => {
        try {
          return violationsOf(api, x);
        } catch (err) {
          return [`${x.method} ${x.url} → ${x.statusCode}: the validator failed (${err instanceof Error ? err.message : String(err)})`];
        }
      });
    },
  };
}

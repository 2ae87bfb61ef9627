/**
 * How the demo talks to the service: through the public API only, as a driver app, a telematics box or
 * a dispatcher's script would. `ApiCaller` is what the demo's steps take, so a test can hand them the
 * app's in-process `inject` instead of a running server.
 */
export interface ApiCaller {
  /** One request; answers the JSON body, throws on a status of 300 or more. */
  call<T>(method: string, path: string, body?: unknown): Promise<T>;
}

/** The public API over HTTP (fetch). */
export class HttpApi implements ApiCaller {
  constructor(
    private readonly base: string,
    private readonly headers: Record<string, string> = {},
  ) {}

  as(headers: Record<string, string>): HttpApi {
    return new HttpApi(this.base, headers);
  }

  async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(this.base + path, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...this.headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json().catch(() => ({}))) as T;
    if (res.status >= 300) throw new Error(`${method} ${path}: HTTP ${res.status} ${JSON.stringify(json)}`);
    return json;
  }
}

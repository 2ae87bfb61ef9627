/**
 * What the generated OpenAPI document needs after @fastify/swagger has built it from the route schemas.
 *
 * A route that takes no body, or an optional one, has a body schema that accepts null (EmptyBody, or an
 * object of optional fields | null): the request may be sent without a body. @fastify/swagger marks every
 * requestBody required; such a body is not, so generated clients and validators do not insist on one.
 */
type Json = Record<string, unknown>;

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'];

/** Whether a JSON schema accepts null (type null, a type list with null, or a union with such a branch). */
export function acceptsNull(schema: unknown): boolean {
  if (!schema || typeof schema !== 'object') return false;
  const s = schema as Json;
  if (s.type === 'null' || (Array.isArray(s.type) && s.type.includes('null'))) return true;
  return ['anyOf', 'oneOf'].some((k) => Array.isArray(s[k]) && (s[k] as unknown[]).some(acceptsNull));
}

export function finishOpenApiDocument<T extends Json>(doc: T): T {
  const paths = (doc.paths ?? {}) as Record<string, Record<string, Json>>;
  for (const item of Object.values(paths)) {
    for (const method of METHODS) {
      const body = item[method]?.requestBody as { required?: boolean; content?: Record<string, { schema?: unknown }> } | undefined;
      if (!body?.content) continue;
      if (Object.values(body.content).every((media) => acceptsNull(media.schema))) body.required = false;
    }
  }
  return doc;
}

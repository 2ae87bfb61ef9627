import { readFileSync } from 'node:fs';

/**
 * The service's version: package.json's `version` (the OpenAPI document's `info.version` and the health
 * answer). Read once at start; the path is the same from src/lib (tsx, tests) and dist/lib (the build).
 */
export const SERVICE_VERSION: string = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/**
 * Writes web/src/api/schema.d.ts: the dashboard's API types, generated with openapi-typescript from the
 * OpenAPI document the server builds from its TypeBox schemas, so the front end and the server share one
 * source of truth. `npm run web:types` after changing a schema; a test (test/e2e/web-api-types.test.ts)
 * fails while the committed file differs from what the server's schemas produce.
 */
import fs from 'node:fs';
import path from 'node:path';
import { webApiTypes } from './web-api-types.lib.js';

const target = path.resolve(import.meta.dirname, '../web/src/api/schema.d.ts');
const text = await webApiTypes();
fs.writeFileSync(target, text);
console.log(`wrote ${path.relative(process.cwd(), target)} (${text.length} characters)`);
process.exit(0);

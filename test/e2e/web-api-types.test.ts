import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { webApiTypes } from '../../scripts/web-api-types.lib.js';

/** The dashboard's API types are the server's schemas: the committed file must be what they generate. */
it('web/src/api/schema.d.ts is what the server schemas generate (run `npm run web:types` after a schema change)', async () => {
  const committed = fs.readFileSync(path.resolve(import.meta.dirname, '../../web/src/api/schema.d.ts'), 'utf8');
  const generated = await webApiTypes();
  expect(committed === generated, 'web/src/api/schema.d.ts is stale: run npm run web:types').toBe(true);
});

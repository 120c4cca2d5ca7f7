import { writeFileSync } from 'node:fs';
import { type OpenApi, renderHttpReference } from '../lib/api/http-reference.ts';
import { openApiDocument } from '../lib/api/openapi.ts';

/** npm run docs:api: writes docs/http-api.md from lib/api/ (a test checks that the committed file is current). */
const target = new URL('../docs/http-api.md', import.meta.url);
writeFileSync(target, renderHttpReference(openApiDocument() as unknown as OpenApi));
console.log(`wrote ${target.pathname}`);

// npm run openapi [-- <file>]: writes this build's OpenAPI document (default packages/sdk/openapi.json), without a
// server or a database (openapi-document.ts). Then `npm run generate -w @farmland/sdk` regenerates the SDK's types.
import fs from 'node:fs';
import path from 'node:path';
import { buildOpenApiDocument, serialiseDocument } from '../openapi-document.js';

const out = path.resolve(process.argv[2] ?? path.resolve(import.meta.dirname, '../../../../packages/sdk/openapi.json'));
const doc = await buildOpenApiDocument();
fs.writeFileSync(out, serialiseDocument(doc));
process.stdout.write(`wrote ${out} (${Object.keys(doc['paths'] as object).length} paths)\n`);
process.exit(0);

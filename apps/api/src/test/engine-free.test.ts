// The files the PostgreSQL pass leaves to the PGlite pass (vitest.config.ts, ENGINE_FREE) must open no database: none
// imports the test harness, the engine helpers or the database client, or reads TEST_DATABASE_URL. A file that starts to
// would otherwise be tested on one engine only.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENGINE_FREE } from './engine-free.js';

const root = path.resolve(import.meta.dirname, '../..');
const opensADatabase = /from '[./]*(test\/)?(harness|engine)\.js'|from '[./]*(db\/)?client\.js'|from '[./]*db\/|TEST_DATABASE_URL/;

describe('engine-free test files', () => {
  it.each(ENGINE_FREE)('%s exists and opens no database', (file) => {
    const text = fs.readFileSync(path.join(root, file), 'utf8');
    // Code samples inside the layering lint's test are strings, not imports: only import lines and env reads count.
    const imports = text.split('\n').filter((l) => /^import |process\.env/.test(l));
    expect(imports.filter((l) => opensADatabase.test(l))).toEqual([]);
  });
});

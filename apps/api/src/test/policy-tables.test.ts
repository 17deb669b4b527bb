// The policy tables are complete (lib/policy.ts, docs/decisions/0060-one-policy-form.md): every route that is not public
// takes its access rule from a declared rule of a module's table, with the rule's roles unchanged; every declared rule
// is used by a route or a service; every exportable list has its rule; and no module answers 403 outside the tables.
// The tables are found on disk (modules/<module>/<module>.policy.ts), so a new module's table is checked without an edit here.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Policy } from '../lib/policy.js';
import { EXPORTABLE_LISTS } from '../modules/exports/exports.registry.js';
import { exportsPolicy } from '../modules/exports/exports.policy.js';
import { testEnv, type TestEnv } from './harness.js';

const MODULES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../modules');

/** Every non-test source file of the modules, with its text. */
function moduleSources(): Array<{ file: string; text: string }> {
  const out: Array<{ file: string; text: string }> = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts')) out.push({ file: path.relative(MODULES, p), text: fs.readFileSync(p, 'utf8') });
    }
  };
  walk(MODULES);
  return out;
}

const isPolicy = (v: unknown): v is Policy =>
  typeof v === 'object' && v !== null && typeof (v as Policy).module === 'string' && typeof (v as Policy).rules === 'object';

type Table = { policy: Policy; exportName: string; folder: string };
let env: TestEnv;
const tables = new Map<string, Table>();

beforeAll(async () => {
  env = await testEnv();
  for (const folder of fs.readdirSync(MODULES)) {
    const file = path.join(MODULES, folder, `${folder}.policy.ts`);
    if (!fs.existsSync(file)) continue;
    const mod = (await import(file)) as Record<string, unknown>;
    for (const [exportName, value] of Object.entries(mod)) {
      if (!isPolicy(value)) continue;
      expect(tables.has(value.module), `two tables named ${value.module}`).toBe(false);
      tables.set(value.module, { policy: value, exportName, folder });
    }
  }
});

describe('policy tables', () => {
  it('finds one table per policy file, named after its module folder', () => {
    const policyFiles = fs.readdirSync(MODULES).filter((d) => fs.existsSync(path.join(MODULES, d, `${d}.policy.ts`)));
    expect(policyFiles.length).toBeGreaterThanOrEqual(15);
    expect([...tables.values()].map((t) => t.folder).sort()).toEqual(policyFiles.sort());
    for (const [name, t] of tables) expect(name, t.exportName).toBe(t.folder);
    // No policy file elsewhere under modules/ (a second form beside the tables).
    const stray = moduleSources().filter((s) => s.file.endsWith('.policy.ts') && !policyFiles.some((d) => s.file === path.join(d, `${d}.policy.ts`)));
    expect(stray.map((s) => s.file)).toEqual([]);
  });

  it("gives every route that is not public the roles of a declared rule (the route's gate is the table's rule)", () => {
    const problems: string[] = [];
    let gated = 0;
    for (const r of env.app.routeTable) {
      if (r.access === 'public') continue;
      const key = `${r.method} ${r.url}`;
      if (!r.action) {
        problems.push(`${key}: access ${JSON.stringify(r.access)} without a policy action (use gate(policy, action))`);
        continue;
      }
      const dot = r.action.indexOf('.');
      const table = tables.get(r.action.slice(0, dot));
      const rule = table?.policy.rules[r.action.slice(dot + 1)];
      if (!rule) problems.push(`${key}: ${r.action} is declared in no table`);
      else if (JSON.stringify(r.access) !== JSON.stringify(rule.who))
        problems.push(`${key}: access ${JSON.stringify(r.access)} differs from ${r.action}'s ${JSON.stringify(rule.who)}`);
      else gated++;
    }
    expect(problems).toEqual([]);
    expect(gated).toBeGreaterThanOrEqual(80);
  });

  it('uses every declared rule: in a route gate, an authorize call, or an exportable list', () => {
    const used = new Set(env.app.routeTable.flatMap((r) => (r.action ? [r.action] : [])));
    const byExport = new Map([...tables.values()].map((t) => [t.exportName, t.policy.module]));
    const undeclared: string[] = [];
    for (const { file, text } of moduleSources()) {
      // authorize(ctx, farmsPolicy, 'read' …), authorizeRow(…), gate(farmsPolicy, 'read'), can(…, farmsPolicy, 'read' …)
      for (const m of text.matchAll(/\b(\w+Policy), '([\w-]+)'/g)) {
        const module = byExport.get(m[1]!);
        if (!module) continue;
        const action = `${module}.${m[2]}`;
        if (!(m[2]! in tables.get(module)!.policy.rules)) undeclared.push(`${file}: ${action}`);
        used.add(action);
      }
    }
    for (const list of EXPORTABLE_LISTS) used.add(`exports.${list.action}`);
    const unused = [...tables.values()].flatMap((t) => Object.keys(t.policy.rules).map((a) => `${t.policy.module}.${a}`)).filter((a) => !used.has(a));
    expect(undeclared).toEqual([]);
    expect(unused).toEqual([]);
  });

  it('has a rule for every exportable list, named like the list', () => {
    for (const list of EXPORTABLE_LISTS) {
      expect(list.action, list.name).toBe(list.name);
      expect(Object.keys(exportsPolicy.rules), list.name).toContain(list.action);
    }
  });

  it('leaves 403s to the tables: no module builds a forbidden answer of its own', () => {
    const own = moduleSources()
      .filter((s) => /problems\.forbidden\(/.test(s.text))
      .map((s) => s.file);
    expect(own, 'answer 403 through lib/policy.ts (authorize) and a rule in the module table').toEqual([]);
  });
});

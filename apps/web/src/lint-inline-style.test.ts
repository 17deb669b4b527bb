// The console's inline-style rule (eslint/no-inline-style.js, docs/decisions/0092-console-styles.md), run through ESLint's
// Node API with the repository's config on a component at a path under apps/web/src: constant styles fail, values
// from run-time data pass, and the escape comment lets an opaque style object through.
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');
const eslint = new ESLint({ cwd: root });

/** The number of no-inline-style reports for a component whose JSX is `jsx`. */
async function reports(jsx: string, at = 'apps/web/src/components/ui/lint-probe.tsx'): Promise<number> {
  const text = `export function Probe({ height, kind, s }: { height: number; kind: string; s: object }) {\n  const COLORS: Record<string, string> = { a: 'red' };\n  void height; void kind; void s; void COLORS;\n  return ${jsx};\n}\n`;
  const [result] = await eslint.lintText(text, { filePath: path.join(root, at) });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'styles/no-inline-style').length;
}

describe('no-inline-style lint', { timeout: 120_000 }, () => {
  it('fails on constant values: literals, a choice between literals, a constant spread, a const', async () => {
    expect(await reports(`<div style={{ width: '100%', gap: 8 }} />`)).toBe(2);
    expect(await reports(`<div style={{ padding: height > 1 ? 12 : 24 }} />`)).toBe(1);
    expect(await reports(`<div style={{ ...(height > 1 ? { padding: '0 12px' } : {}) }} />`)).toBe(1);
    expect(await reports(`(() => { const W = 100; return <div style={{ width: W }} />; })()`)).toBe(1);
  });

  it('passes values from run-time data, and reports only the constant part of a mixed style', async () => {
    expect(await reports(`<div style={{ height }} />`)).toBe(0);
    expect(await reports(`<div style={{ background: COLORS[kind], borderLeftColor: \`\${kind}\` }} />`)).toBe(0);
    expect(await reports(`<div style={{ height, width: '100%' }} />`)).toBe(1);
  });

  it('needs the escape comment for a style it cannot read', async () => {
    expect(await reports(`<div style={s} />`)).toBe(1);
    expect(await reports(`<div\n    // inline-style: runtime (the layer's paint, from the server)\n    style={s}\n  />`)).toBe(0);
  });

  it('leaves the field app alone', async () => {
    expect(await reports(`<div style={{ width: '100%' }} />`, 'apps/web/src/field/lint-probe.tsx')).toBe(0);
  });
});

// A local lint rule: no cycle between the API's folders (each module of modules/ is a folder of its own; lib/, db/,
// ingest/, jobs/, seed/, plugins/, bin/, bench/ are the others, and each file at the root is one). import-x/no-cycle sees cycles between
// files only; two folders can import each other through different files (farms.service → farmers.queries and
// farmers.service → farms.queries) with no file cycle. The folder graph is read from the files on disk once per process
// (value imports only, tests left out: a test may arrange state through any folder), and each import of the file being
// linted that leads to another folder is checked for a way back.
import fs from 'node:fs';
import path from 'node:path';

const IMPORT = /(?:^|\n)\s*(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?['"](\.{1,2}\/[^'"]+)['"]/g;
const isTest = (file) => /\.test\.ts$/.test(file) || file.split(path.sep).includes('test');

/**
 * The folder a file belongs to, relative to the source root: modules/<name>, or a top folder; a file at the root is a
 * unit of its own (app.ts sits above the modules, context.ts and config.ts below them).
 */
function folderOf(root, file) {
  const parts = path.relative(root, file).split(path.sep);
  if (parts[0] === 'modules' && parts.length > 2) return `modules/${parts[1]}`;
  return parts[0];
}

const resolveTs = (from, spec) => path.resolve(path.dirname(from), spec).replace(/\.js$/, '.ts');

const graphs = new Map();
function folderGraph(root) {
  let graph = graphs.get(root);
  if (graph) return graph;
  graph = new Map();
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (p.endsWith('.ts') && !isTest(p)) {
        const from = folderOf(root, p);
        for (const m of fs.readFileSync(p, 'utf8').matchAll(IMPORT)) {
          const to = folderOf(root, resolveTs(p, m[1]));
          if (to === from || to.startsWith('..')) continue;
          if (!graph.has(from)) graph.set(from, new Map());
          if (!graph.get(from).has(to)) graph.get(from).set(to, path.relative(root, p));
        }
      }
    }
  };
  walk(root);
  graphs.set(root, graph);
  return graph;
}

/** A path of folders from `start` to `goal` in the graph (with the file that makes each step), or null. */
function pathBetween(graph, start, goal) {
  const seen = new Set([start]);
  const queue = [[start, []]];
  while (queue.length > 0) {
    const [at, route] = queue.shift();
    for (const [next, via] of graph.get(at) ?? []) {
      if (next === goal) return [...route, `${at} (${via})`];
      if (!seen.has(next)) {
        seen.add(next);
        queue.push([next, [...route, `${at} (${via})`]]);
      }
    }
  }
  return null;
}

export const noFolderCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'No import cycle between folders of the API (docs/decisions/0066-api-layering.md).' },
    schema: [{ type: 'object', properties: { root: { type: 'string' } }, required: ['root'], additionalProperties: false }],
    messages: {
      cycle: 'Folder cycle: {{from}} imports {{to}}, and {{route}} leads back to {{from}}. Move the shared piece down (lib/, db/ or a small module both use).',
    },
  },
  create(context) {
    const root = context.options[0].root;
    const file = context.physicalFilename;
    if (!file.startsWith(root + path.sep) || isTest(file)) return {};
    const from = folderOf(root, file);
    const check = (node, source) => {
      if (node.importKind === 'type' || node.exportKind === 'type' || typeof source !== 'string' || !source.startsWith('.')) return;
      const to = folderOf(root, resolveTs(file, source));
      if (to === from || to.startsWith('..')) return;
      const route = pathBetween(folderGraph(root), to, from);
      if (route) context.report({ node, messageId: 'cycle', data: { from, to, route: route.join(' → ') } });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
    };
  },
};

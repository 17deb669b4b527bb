// Build step for the field app's service worker: after Vite writes the bundle, collects every file the field entry
// can load (its chunks, their dynamic imports, CSS and assets such as maplibre's worker) and writes dist/field/sw.js
// from src/field/sw/sw-template.js with that list and a version made from it.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Plugin, Rolldown } from 'vite';

type OutputBundle = Rolldown.OutputBundle;
type OutputChunk = Rolldown.OutputChunk;

const STATIC = ['/field/manifest.webmanifest', '/field/icons/icon-192.png', '/field/icons/icon-512.png', '/field/icons/maskable-512.png'];

type ChunkMeta = OutputChunk & { viteMetadata?: { importedCss: Set<string>; importedAssets: Set<string> } };

export function fieldFiles(bundle: OutputBundle, entryHtml = 'field.html'): string[] {
  const entry = Object.values(bundle).find((c): c is OutputChunk => c.type === 'chunk' && c.isEntry && (c.facadeModuleId ?? '').endsWith(entryHtml));
  if (!entry) throw new Error(`no entry chunk for ${entryHtml}`);
  const files = new Set<string>();
  const walk = (fileName: string) => {
    if (files.has(fileName)) return;
    files.add(fileName);
    const chunk = bundle[fileName] as ChunkMeta | undefined;
    if (!chunk || chunk.type !== 'chunk') return;
    chunk.viteMetadata?.importedCss.forEach((f) => files.add(f));
    chunk.viteMetadata?.importedAssets.forEach((f) => files.add(f));
    // Assets referenced by URL (maplibre's worker, `?url` imports) appear in the code as their file names.
    for (const item of Object.values(bundle))
      if (item.type === 'asset' && !files.has(item.fileName) && chunk.code.includes(path.basename(item.fileName))) files.add(item.fileName);
    [...chunk.imports, ...chunk.dynamicImports].forEach(walk);
  };
  walk(entry.fileName);
  return [...files].sort();
}

export function fieldServiceWorker(): Plugin {
  let outDir = 'dist';
  let root = process.cwd();
  return {
    name: 'farmland-field-sw',
    apply: 'build',
    configResolved(c) {
      root = c.root;
      outDir = path.resolve(c.root, c.build.outDir);
    },
    writeBundle(_opts, bundle) {
      const files = fieldFiles(bundle).map((f) => `/${f}`);
      const precache = [...files, ...STATIC];
      const version = crypto.createHash('sha256').update(precache.join('\n')).digest('hex').slice(0, 12);
      const template = fs.readFileSync(path.join(root, 'src/field/sw/sw-template.js'), 'utf8');
      // The template's first line names its globals for the linter; the output does not need it.
      const sw = template
        .replace(/^\/\* global [^*]*\*\/\n/, '')
        .replace('const VERSION = __FIELD_VERSION__;', `const VERSION = ${JSON.stringify(version)};`)
        .replace('const PRECACHE = __FIELD_PRECACHE__;', `const PRECACHE = ${JSON.stringify(precache, null, 1)};`);
      if (sw.includes('__FIELD_')) throw new Error('field service worker: a placeholder was not filled');
      fs.mkdirSync(path.join(outDir, 'field'), { recursive: true });
      fs.writeFileSync(path.join(outDir, 'field/sw.js'), sw);
      fs.writeFileSync(path.join(outDir, 'field/precache.json'), JSON.stringify({ version, files: precache }, null, 1));
    },
  };
}

// Where uploads (analysis sources, reference layers) wait on this machine's disk while a request reads them. Shared by
// the modules that take files, so that none of them reaches into another for it.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

type WithDataDir = { config: { dataDir: string } };

/** Where uploads wait on this machine's disk while they are read (removed when the request ends). */
export const uploadsDir = (deps: WithDataDir) => path.join(deps.config.dataDir, 'tmp', 'uploads');

/** A fresh path for an upload in uploadsDir (the directory is created). */
export async function uploadPath(deps: WithDataDir): Promise<string> {
  const dir = uploadsDir(deps);
  await fs.promises.mkdir(dir, { recursive: true });
  return path.join(dir, `${crypto.randomUUID()}.upload`);
}

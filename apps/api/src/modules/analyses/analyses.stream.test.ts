// Large uploads in bounded memory (issue 15 §2): the upload is written to disk as it arrives and refused with 413 as soon
// as it passes the limit (a declared length beyond it before any byte is read); the row cap is the configured one
// (ANALYSIS_MAX_ROWS) and its 413 names it; a refused upload leaves nothing (no analysis, no file record, no staged or
// source object, no upload on disk); a failed run removes its staged rows; uploads a dead process left are swept.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arrangeTenant, multipart, rect, settled, square } from '../../test/analysis-fixtures.js';
import { testEnv, type TestEnv } from '../../test/harness.js';
import { failAnalysisRun, stagedKey } from './analyses.pipeline.js';
import { sweepUploads, uploadsDir } from './analyses.service.js';

const csvOf = (n: number) =>
  Buffer.from(
    [
      'farm_name,farm_coordinates',
      ...Array.from(
        { length: n },
        (_, i) => `Farm ${i + 1},"${JSON.stringify(square(30.01 + (i % 50) * 0.002, 30.01 + Math.floor(i / 50) * 0.002)).replace(/"/g, '""')}"`,
      ),
    ].join('\n'),
  );

/** Sends a request by hand: headers first, then the body in pieces, stopping as soon as an answer arrives. */
function rawPost(
  port: number,
  headers: Record<string, string | number>,
  pieces: Buffer[],
  pauseMs = 20,
): Promise<{ status: number; body: any; sentBytes: number; answeredBeforeEnd: boolean }> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const req = http.request({ method: 'POST', host: '127.0.0.1', port, path: '/api/custom-analysis/', headers }, (res) => {
      answered = true;
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(parts).toString() || 'null'), sentBytes: sent, answeredBeforeEnd: sent < total }),
      );
    });
    const total = pieces.reduce((n, p) => n + p.length, 0);
    // The server may close the connection after its answer: a write after that fails, which is what is being tested.
    req.on('error', (err) => (answered ? undefined : reject(err)));
    void (async () => {
      for (const p of pieces) {
        if (answered || req.destroyed) return;
        req.write(p);
        sent += p.length;
        await new Promise((r) => setTimeout(r, pauseMs));
      }
      if (!answered && !req.destroyed) req.end();
    })();
  });
}

describe('analysis uploads in a stream', () => {
  let env: TestEnv;
  let t: Awaited<ReturnType<typeof arrangeTenant>>;
  let port: number;
  const storageDir = () => (env.config.storage.driver === 'local' ? env.config.storage.dir : '');
  const stored = (kind: string) => {
    const dir = path.join(storageDir(), t.tenantId, kind);
    return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
  };
  const nothingLeft = async (name: string) => {
    expect(await env.sql(sql`SELECT id FROM custom_analyses WHERE tenant_id = ${t.tenantId} AND name = ${name}`)).toHaveLength(0);
    expect(await env.sql(sql`SELECT id FROM files WHERE tenant_id = ${t.tenantId}`)).toHaveLength(0);
    expect(stored('analysis_staged')).toEqual([]);
    expect(stored('analysis_source')).toEqual([]);
    expect(fs.existsSync(uploadsDir(env.deps)) ? fs.readdirSync(uploadsDir(env.deps)) : []).toEqual([]);
  };

  beforeAll(async () => {
    env = await testEnv();
    t = await arrangeTenant(env, [{ name: 'Stream block', ring: rect(30.0, 30.0, 30.2, 30.2) }]);
    await env.app.listen({ port: 0, host: '127.0.0.1' });
    port = (env.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    // The shared app keeps serving inject() calls of other files; only its listening socket is closed here.
    await new Promise<void>((resolve) => env.app.server.close(() => resolve()));
  });

  it('refuses a declared length over the limit with 413 before reading the body', async () => {
    const limit = env.config.uploadLimit;
    const m = multipart({ name: 'Too large declared', operational_areas: t.areaIds }, 'big.csv', csvOf(5));
    const res = await rawPost(
      port,
      { ...m.headers, authorization: `Bearer ${t.caller.token}`, 'content-length': limit + 5 * 1024 * 1024 },
      [m.payload.subarray(0, 1000), ...Array.from({ length: 50 }, () => Buffer.alloc(64 * 1024, 0x61))],
      50,
    );
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('payload_too_large');
    expect(Object.keys(res.body.errors)[0]).toBe('file');
    expect(res.body.message).toMatch(new RegExp(`limit of ${limit} bytes`));
    // Answered after the first piece or so, not after the whole body.
    expect(res.answeredBeforeEnd).toBe(true);
    await nothingLeft('Too large declared');
  });

  it('refuses a chunked upload (no declared length) with 413 as soon as the file passes the limit, and keeps nothing', async () => {
    const limit = env.config.uploadLimit;
    const m = multipart({ name: 'Too large streamed', operational_areas: t.areaIds }, 'big.csv', Buffer.alloc(limit + 2 * 1024 * 1024, 0x61));
    const pieces: Buffer[] = [];
    for (let i = 0; i < m.payload.length; i += 256 * 1024) pieces.push(m.payload.subarray(i, i + 256 * 1024));
    const res = await rawPost(
      port,
      { 'content-type': m.headers['content-type'], authorization: `Bearer ${t.caller.token}`, 'transfer-encoding': 'chunked' },
      pieces,
      5,
    );
    expect(res.status).toBe(413);
    expect(Object.keys(res.body.errors)[0]).toBe('file');
    await nothingLeft('Too large streamed');
  });

  it('applies the configured row cap (ANALYSIS_MAX_ROWS) with a 413 naming it, and keeps nothing', async () => {
    const before = env.config.analysisMaxRows;
    env.config.analysisMaxRows = 250;
    try {
      const over = await t.caller.request({
        method: 'POST',
        url: '/api/custom-analysis/',
        ...multipart({ name: 'Over the cap', operational_areas: t.areaIds }, 'cap.csv', csvOf(251)),
      });
      expect(over.status).toBe(413);
      expect(over.body.code).toBe('too_many_rows');
      expect(Object.keys(over.body.errors)[0]).toBe('file');
      expect(over.body.message).toMatch(/more than 250 data rows/);
      await nothingLeft('Over the cap');

      const at = await t.caller.request({
        method: 'POST',
        url: '/api/custom-analysis/',
        ...multipart({ name: 'At the cap', operational_areas: t.areaIds }, 'cap.csv', csvOf(250)),
      });
      expect(at.status, JSON.stringify(at.body)).toBe(201);
      const detail = await settled(t.caller, at.body.data.id);
      expect(detail.status).toBe('completed');
      expect(detail.total_uploaded_data_count).toBe(250);
      expect(detail.within_operational_area.count).toBe(250);
      // Completed: the staged rows are gone (removed just after the run's commit, so waited for), the source file stays
      // (its bytes and checksum as uploaded).
      await expect.poll(() => stored('analysis_staged'), { timeout: 30_000 }).toEqual([]);
      const [file] = await env.sql<{ size_bytes: number; sha256: string; storage_key: string }>(
        sql`SELECT size_bytes, sha256, storage_key FROM files WHERE tenant_id = ${t.tenantId}`,
      );
      const bytes = csvOf(250);
      expect(file!.size_bytes).toBe(bytes.length);
      expect(fs.readFileSync(path.join(storageDir(), file!.storage_key)).equals(bytes)).toBe(true);
      expect((await t.caller.delete(`/api/custom-analysis/${at.body.data.id}/`)).status).toBe(200);
    } finally {
      env.config.analysisMaxRows = before;
    }
  });

  it('removes the staged rows of a failed analysis (it never runs again)', async () => {
    const res = await t.caller.request({
      method: 'POST',
      url: '/api/custom-analysis/',
      ...multipart({ name: 'Failing', operational_areas: t.areaIds }, 'f.csv', csvOf(3)),
    });
    expect(res.status).toBe(201);
    await settled(t.caller, res.body.data.id);
    // The run removes its staged rows just after its commit: wait for that before staging them again.
    await expect.poll(() => stored('analysis_staged'), { timeout: 30_000 }).toEqual([]);
    // Stage it again as if queued, then fail it as the last attempt does.
    await env.deps.storage.put(stagedKey(t.tenantId, res.body.data.id), Buffer.from('[]\n'));
    expect(stored('analysis_staged')).toHaveLength(1);
    await env.sql(sql`UPDATE custom_analyses SET status = 'processing' WHERE id = ${res.body.data.id}`);
    await failAnalysisRun(env.deps, t.tenantId, res.body.data.id, 'The analysis failed: test');
    expect(stored('analysis_staged')).toEqual([]);
    expect((await t.caller.get(`/api/custom-analysis/${res.body.data.id}/`)).body.data.status).toBe('failed');
    expect((await t.caller.delete(`/api/custom-analysis/${res.body.data.id}/`)).status).toBe(200);
  });

  it('sweeps uploads a process left behind, not the ones in progress', async () => {
    const dir = uploadsDir(env.deps);
    fs.mkdirSync(dir, { recursive: true });
    const old = path.join(dir, 'left-behind.upload');
    const fresh = path.join(dir, 'in-progress.upload');
    fs.writeFileSync(old, 'x');
    fs.writeFileSync(fresh, 'y');
    const hourAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    fs.utimesSync(old, hourAgo, hourAgo);
    expect(await sweepUploads(env.deps)).toBe(1);
    expect(fs.readdirSync(dir)).toEqual(['in-progress.upload']);
    fs.rmSync(fresh);
  });
});

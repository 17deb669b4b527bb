// How the sync reads an answer: a refusal is kept with its reason; no answer, a 5xx, a 429, or a key whose first
// request is still running on the server leave the item waiting for the next pass.
import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError } from '../lib/api-client';
import type { QueuedCapture } from './db';
import { captureBody, classify } from './sync';

const apiError = (status: number, body: Record<string, unknown>) => new ApiError(status, body, true);

describe('classify', () => {
  it('keeps the item waiting when the same key is still in progress on the server', () => {
    expect(classify(apiError(409, { code: 'idempotency_key_in_progress', message: 'in progress' }))).toBe('server_error');
  });
  it('refuses a reused key with another body, naming the reason', () => {
    expect(classify(apiError(409, { code: 'idempotency_key_reused', message: 'This Idempotency-Key was used for another request.' }))).toEqual({
      refused: 'This Idempotency-Key was used for another request.',
    });
  });
  it('names the first field error of a 400', () => {
    expect(classify(apiError(400, { message: 'Invalid input', errors: { coordinates: ['Too many vertices'] } }))).toEqual({
      refused: 'Invalid input (coordinates: Too many vertices)',
    });
  });
  it('waits on no answer, a 5xx and a 429; stops on an ended session', () => {
    expect(classify(new NetworkError())).toBe('offline');
    expect(classify(apiError(503, {}))).toBe('server_error');
    expect(classify(apiError(429, {}))).toBe('server_error');
    expect(classify(apiError(401, {}))).toBe('session_ended');
  });
});

describe('captureBody', () => {
  const ring: [number, number][] = [
    [3.9, 7.4],
    [3.902, 7.4],
    [3.902, 7.402],
    [3.9, 7.402],
    [3.9, 7.4],
  ];
  const capture = (over: Partial<QueuedCapture>): QueuedCapture => ({
    localId: 'l',
    idempotencyKey: 'k',
    seq: 1,
    createdAt: 0,
    mode: 'walk',
    areaId: 'a',
    farmer: { serverId: 'f', name: 'F' },
    name: 'N',
    coordinates: ring,
    timeTakenToMap: '00:01:00',
    gpsDeviceId: 'd',
    location: '',
    region: 'r',
    mappedBy: 'm',
    areaSqm: 1,
    perimeterM: 1,
    declaredAreaSqm: null,
    warnings: [],
    overlaps: [],
    saveReason: null,
    state: 'waiting',
    reason: null,
    serverId: null,
    sentAt: null,
    ...over,
  });
  it('a point plot sends its centre and declared area with its polygon', () => {
    expect(captureBody(capture({ mode: 'point', declaredAreaSqm: 20000, point: [3.901, 7.401] }), 'f')).toMatchObject({
      coordinates: ring,
      point: [3.901, 7.401],
      declared_area_sqm: 20000,
    });
  });
  it("a point plot queued before the centre was kept sends its polygon's centre", () => {
    const body = captureBody(capture({ mode: 'point', declaredAreaSqm: 20000 }), 'f');
    expect(body.point?.[0]).toBeCloseTo(3.901, 9);
    expect(body.point?.[1]).toBeCloseTo(7.401, 9);
  });
  it('a walked boundary sends neither', () => {
    const body = captureBody(capture({}), 'f');
    expect('point' in body).toBe(false);
    expect('declared_area_sqm' in body).toBe(false);
  });
});

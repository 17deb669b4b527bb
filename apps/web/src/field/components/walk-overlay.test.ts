// The walk overlay's scene: what it draws where, under a Web Mercator projection as MapLibre's (512 px world at zoom 0).
import { describe, expect, it } from 'vitest';
import type { LngLat } from '../geo/geodesy';
import { accuracyRadiusPx, frameProjector, overlayScene, type OverlayInputs, type Project } from './walk-overlay';

/** Web Mercator in CSS pixels at `zoom`, centred on `centre` in a 360 × 300 container. */
function mercator(centre: LngLat, zoom: number): Project {
  const world = 512 * 2 ** zoom;
  const px = ([lng, lat]: LngLat) => ({
    x: ((lng + 180) / 360) * world,
    y: ((1 - Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360)) / Math.PI) / 2) * world,
  });
  const c = px(centre);
  return (p) => {
    const q = px(p);
    return { x: q.x - c.x + 180, y: q.y - c.y + 150 };
  };
}

const centre: LngLat = [3.7705, 7.6405];
const project = mercator(centre, 17);
const walk: LngLat[] = [
  [3.7705, 7.6405],
  [3.771, 7.6405],
  [3.771, 7.641],
];
const base: OverlayInputs = { line: walk, closed: false, drawing: false, crossings: [], overlapShapes: [], position: null };

describe('walk overlay scene', () => {
  it('draws an open walk as a line with its vertices, and a closed one as a filled ring', () => {
    const open = overlayScene(base, project);
    expect(open.fill).toBeNull();
    expect(open.vertices).toHaveLength(3);
    expect(open.line).toHaveLength(3);
    expect(open.vertices[0]).toEqual({ x: 180, y: 150 });
    // East is right, north is up.
    expect(open.vertices[1]!.x).toBeGreaterThan(180);
    expect(open.vertices[2]!.y).toBeLessThan(150);
    const closed = overlayScene({ ...base, closed: true }, project);
    expect(closed.fill).toHaveLength(3);
    expect(closed.line).toHaveLength(4);
    expect(closed.line[3]).toEqual(closed.line[0]);
    // Two points are a line even when the walk is taken as closed; one is a vertex only.
    expect(overlayScene({ ...base, line: walk.slice(0, 2), closed: true }, project).fill).toBeNull();
    expect(overlayScene({ ...base, line: walk.slice(0, 1) }, project).line).toHaveLength(0);
  });

  it('leaves the boundary and the overlaps to terra-draw and the map in draw mode, and keeps the crossings', () => {
    const ring: LngLat[] = [...walk, walk[0]!];
    const inputs: OverlayInputs = { ...base, drawing: true, closed: true, overlapShapes: [[ring]], crossings: [walk[1]!] };
    const scene = overlayScene(inputs, project);
    expect(scene.fill).toBeNull();
    expect(scene.line).toHaveLength(0);
    expect(scene.vertices).toHaveLength(0);
    expect(scene.overlaps).toHaveLength(0);
    expect(scene.crossings).toEqual([project(walk[1]!)]);
    expect(overlayScene({ ...inputs, drawing: false }, project).overlaps).toEqual([[ring.map(project)]]);
  });

  it('sizes the accuracy circle in metres on the ground', () => {
    // Web Mercator ground resolution at zoom 17 and this latitude: equator length × cos(lat) / world width in pixels.
    const metresPerPx = (40_075_016.686 * Math.cos((centre[1] * Math.PI) / 180)) / (512 * 2 ** 17);
    for (const accuracy of [4, 25, 100]) {
      const r = accuracyRadiusPx(project, { lng: centre[0], lat: centre[1], accuracy });
      expect(r).toBeCloseTo(accuracy / metresPerPx, 1);
    }
    const scene = overlayScene({ ...base, position: { lng: centre[0], lat: centre[1], accuracy: 25 } }, project);
    expect(scene.position?.at).toEqual({ x: 180, y: 150 });
    expect(scene.position?.accuracyPx).toBeCloseTo(25 / metresPerPx, 1);
  });
});

describe('frame projector', () => {
  /** A map whose project is Web Mercator at `zoom`, turned by `bearing` degrees about the container's middle. */
  const fakeMap = (zoom: number, bearing: number, pitch = 0) => {
    const flat = mercator(centre, zoom);
    const [cos, sin] = [Math.cos((bearing * Math.PI) / 180), Math.sin((bearing * Math.PI) / 180)];
    return {
      getPitch: () => pitch,
      getCenter: () => ({ lng: centre[0], lat: centre[1] }),
      project: (p: LngLat | { lng: number; lat: number }) => {
        const q = flat(Array.isArray(p) ? p : [p.lng, p.lat]);
        const [dx, dy] = [q.x - 180, q.y - 150];
        return { x: 180 + dx * cos + dy * sin, y: 150 - dx * sin + dy * cos };
      },
    };
  };

  it('puts every vertex where the map projects it, to a thousandth of a pixel, at any zoom and bearing', () => {
    for (const [zoom, bearing] of [
      [14, 0],
      [17, 0],
      [19, 0],
      [17, 33],
      [18, -120],
    ] as const) {
      const map = fakeMap(zoom, bearing);
      const fast = frameProjector(map as never);
      // Points across and beyond a phone's view at that zoom (up to about 2 km away at zoom 14).
      for (let i = -10; i <= 10; i++)
        for (let j = -10; j <= 10; j++) {
          const p: LngLat = [centre[0] + (i * 0.02) / 2 ** (zoom - 14), centre[1] + (j * 0.02) / 2 ** (zoom - 14)];
          const want = map.project(p);
          const got = fast(p);
          expect(Math.abs(got.x - want.x)).toBeLessThan(1e-3);
          expect(Math.abs(got.y - want.y)).toBeLessThan(1e-3);
        }
    }
  });

  it('uses the map’s own projection when the map is tilted', () => {
    const map = fakeMap(17, 0, 30);
    const p: LngLat = [3.771, 7.641];
    expect(frameProjector(map as never)(p)).toEqual(map.project(p));
  });
});

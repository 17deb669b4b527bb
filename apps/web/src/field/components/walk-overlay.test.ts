// The walk overlay's scene: what it draws where, under a Web Mercator projection as MapLibre's (512 px world at zoom 0).
import { describe, expect, it } from 'vitest';
import type { LngLat } from '../geo/geodesy';
import { accuracyRadiusPx, overlayScene, type OverlayInputs, type Project } from './walk-overlay';

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

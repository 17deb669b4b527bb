// The capture map's live layer: the walk (its line or closed polygon and vertices), the live overlap shapes, the
// crossings and the GPS position with its accuracy, drawn on a 2D canvas above the MapLibre canvas instead of as map
// sources. A GeoJSON source's setData re-tiles in MapLibre's worker and redraws the whole WebGL canvas; at one fix a
// second that was most of a frame in issue 31's walk benchmark (docs/decisions, field walk overlay). The overlay is
// redrawn from the map's projection: at each change of its inputs and at each frame the map renders (a pan, a zoom, the
// follow's jump), so it moves with the map. It takes no pointer events (the map's gestures go through it).
import type { Map as MapLibreMap } from 'maplibre-gl';
import type { LngLat, PolygonRings } from '../geo/geodesy';

export type Pt = { x: number; y: number };
export type Project = (p: LngLat) => Pt;

export type OverlayInputs = {
  line: LngLat[];
  closed: boolean;
  /** Draw mode: terra-draw draws the boundary and the map's own layer the overlaps, so the overlay draws neither. */
  drawing: boolean;
  crossings: LngLat[];
  overlapShapes: PolygonRings[];
  position: { lng: number; lat: number; accuracy: number } | null;
};

/** What the overlay draws, in CSS pixels of the map's container. */
export type OverlayScene = {
  overlaps: Pt[][][];
  /** The closed walk's ring (3 points or more), filled; null while it is a line. */
  fill: Pt[] | null;
  /** The walk's line: open while walking a line, the closed ring when closed. */
  line: Pt[];
  vertices: Pt[];
  crossings: Pt[];
  position: { at: Pt; accuracyPx: number } | null;
};

/** The map layers' look before the overlay (same colours and sizes, so the walk looks as it did). */
export const STYLE = {
  overlapFill: 'rgba(247, 127, 0, 0.6)',
  walkFill: 'rgba(123, 44, 191, 0.25)',
  walkLine: '#5a189a',
  walkLineWidth: 3,
  vertexRadius: 4,
  crossingRadius: 10,
  crossingFill: '#d00000',
  positionRadius: 9,
  positionFill: '#0077ff',
  accuracyFill: 'rgba(0, 119, 255, 0.15)',
  accuracyLine: 'rgba(0, 119, 255, 0.5)',
  halo: '#ffffff',
  haloWidth: 3,
} as const;

const mercatorX = (lng: number) => (lng + 180) / 360;
const mercatorY = (lat: number) => {
  const s = Math.sin((lat * Math.PI) / 180);
  return 0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI);
};

/**
 * The map's projection for one paint. With the map flat (no pitch), a screen position is an affine function of the Web
 * Mercator coordinates (a scale, the bearing's rotation and an offset), so it is read off three points MapLibre projects
 * and applied to every vertex with a few multiplications; map.project builds objects and multiplies 4 × 4 matrices per
 * point, about a millisecond a paint at 200 vertices and a 4× CPU throttle (issue 31's walk benchmark). Tilted: MapLibre's.
 */
export function frameProjector(map: Pick<MapLibreMap, 'project' | 'getCenter' | 'getPitch'>): Project {
  if (map.getPitch() !== 0) return (p) => map.project(p);
  const { lng, lat } = map.getCenter();
  // About 100 m: far enough for the differences to be exact to well under a pixel, near enough to stay in the view.
  const d = 0.001;
  const origin = map.project([lng, lat]);
  const east = map.project([lng + d, lat]);
  const north = map.project([lng, lat + d]);
  const [x0, y0] = [mercatorX(lng), mercatorY(lat)];
  const du = mercatorX(lng + d) - x0;
  const dv = mercatorY(lat + d) - y0;
  const [ax, ay] = [(east.x - origin.x) / du, (east.y - origin.y) / du];
  const [bx, by] = [(north.x - origin.x) / dv, (north.y - origin.y) / dv];
  return ([x, y]) => {
    const u = mercatorX(x) - x0;
    const v = mercatorY(y) - y0;
    return { x: origin.x + ax * u + bx * v, y: origin.y + ay * u + by * v };
  };
}

/** Metres per degree of latitude (mean): the accuracy circle's radius is measured northwards from the position. */
const METRES_PER_DEGREE_LAT = 111_320;

/** The accuracy circle's radius in pixels: the distance on screen to a point `accuracy` metres north of the position. */
export function accuracyRadiusPx(project: Project, position: { lng: number; lat: number; accuracy: number }): number {
  const at = project([position.lng, position.lat]);
  const north = project([position.lng, position.lat + position.accuracy / METRES_PER_DEGREE_LAT]);
  return Math.hypot(north.x - at.x, north.y - at.y);
}

/** The scene for these inputs under this projection (pure: tested without a canvas). */
export function overlayScene(inputs: OverlayInputs, project: Project): OverlayScene {
  const scene: OverlayScene = { overlaps: [], fill: null, line: [], vertices: [], crossings: [], position: null };
  if (!inputs.drawing) {
    scene.overlaps = inputs.overlapShapes.map((rings) => rings.map((ring) => ring.map(project)));
    scene.vertices = inputs.line.map(project);
    if (inputs.closed && scene.vertices.length >= 3) {
      scene.fill = scene.vertices;
      scene.line = [...scene.vertices, scene.vertices[0]!];
    } else if (scene.vertices.length >= 2) scene.line = scene.vertices;
  }
  scene.crossings = inputs.crossings.map(project);
  if (inputs.position) scene.position = { at: project([inputs.position.lng, inputs.position.lat]), accuracyPx: accuracyRadiusPx(project, inputs.position) };
  return scene;
}

const trace = (ctx: CanvasRenderingContext2D, ring: Pt[]) => {
  ring.forEach((p, i) => (i === 0 ? ctx.moveTo(p.x, p.y) : ctx.lineTo(p.x, p.y)));
  ctx.closePath();
};

const dot = (ctx: CanvasRenderingContext2D, p: Pt, r: number) => {
  ctx.moveTo(p.x + r, p.y);
  ctx.arc(p.x, p.y, r, 0, Math.PI * 2);
};

/** A dot with a white ring outside its radius (MapLibre's circle-stroke is drawn outside the circle). */
const haloDot = (ctx: CanvasRenderingContext2D, p: Pt, r: number, fill: string) => {
  ctx.beginPath();
  dot(ctx, p, r + STYLE.haloWidth);
  ctx.fillStyle = STYLE.halo;
  ctx.fill();
  ctx.beginPath();
  dot(ctx, p, r);
  ctx.fillStyle = fill;
  ctx.fill();
};

/** Clears the canvas (width × height CSS pixels at `ratio` device pixels each) and paints the scene. */
export function paintScene(ctx: CanvasRenderingContext2D, scene: OverlayScene, width: number, height: number, ratio: number): void {
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.clearRect(0, 0, width, height);
  if (scene.overlaps.length > 0) {
    ctx.beginPath();
    for (const rings of scene.overlaps) for (const ring of rings) trace(ctx, ring);
    ctx.fillStyle = STYLE.overlapFill;
    ctx.fill('evenodd');
  }
  if (scene.fill) {
    ctx.beginPath();
    trace(ctx, scene.fill);
    ctx.fillStyle = STYLE.walkFill;
    ctx.fill();
  }
  if (scene.line.length >= 2) {
    ctx.beginPath();
    scene.line.forEach((p, i) => (i === 0 ? ctx.moveTo(p.x, p.y) : ctx.lineTo(p.x, p.y)));
    ctx.strokeStyle = STYLE.walkLine;
    ctx.lineWidth = STYLE.walkLineWidth;
    ctx.lineJoin = 'round';
    ctx.lineCap = 'round';
    ctx.stroke();
  }
  if (scene.vertices.length > 0) {
    ctx.beginPath();
    for (const p of scene.vertices) dot(ctx, p, STYLE.vertexRadius);
    ctx.fillStyle = STYLE.walkLine;
    ctx.fill();
  }
  for (const p of scene.crossings) haloDot(ctx, p, STYLE.crossingRadius, STYLE.crossingFill);
  if (scene.position) {
    const { at, accuracyPx } = scene.position;
    if (accuracyPx > STYLE.positionRadius) {
      ctx.beginPath();
      dot(ctx, at, accuracyPx);
      ctx.fillStyle = STYLE.accuracyFill;
      ctx.fill();
      ctx.strokeStyle = STYLE.accuracyLine;
      ctx.lineWidth = 1;
      ctx.stroke();
    }
    haloDot(ctx, at, STYLE.positionRadius, STYLE.positionFill);
  }
}

/**
 * The overlay on one map: `set` gives it new inputs, `paint` draws them if they or the map's view changed since the last
 * paint. It paints itself at each frame the map renders ('render' fires after the map drew the frame, so both canvases
 * show the same view), and sizes its canvas to the map's container at `maxRatio` device pixels per CSS pixel at most.
 */
export class WalkOverlay {
  private inputs: OverlayInputs | null = null;
  private version = 0;
  private painted = '';
  private readonly onRender = () => this.paint();

  constructor(
    private readonly map: MapLibreMap,
    private readonly canvas: HTMLCanvasElement,
    private readonly maxRatio: number,
  ) {
    map.on('render', this.onRender);
  }

  set(inputs: OverlayInputs): void {
    this.inputs = inputs;
    this.version++;
  }

  paint(): void {
    const ctx = this.canvas.getContext('2d');
    if (!ctx || !this.inputs) return;
    const { clientWidth: width, clientHeight: height } = this.map.getContainer();
    const ratio = Math.min(window.devicePixelRatio || 1, this.maxRatio);
    const c = this.map.getCenter();
    const view = [this.version, width, height, ratio, c.lng, c.lat, this.map.getZoom(), this.map.getBearing(), this.map.getPitch()].join(' ');
    if (view === this.painted) return;
    this.painted = view;
    const [w, h] = [Math.round(width * ratio), Math.round(height * ratio)];
    if (this.canvas.width !== w || this.canvas.height !== h) [this.canvas.width, this.canvas.height] = [w, h];
    paintScene(ctx, overlayScene(this.inputs, frameProjector(this.map)), width, height, ratio);
  }

  destroy(): void {
    this.map.off('render', this.onRender);
  }
}

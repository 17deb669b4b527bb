// A point plot's polygon: the EU regulation lets a plot of 4 ha or less be one point with its declared area; the registry
// stores such a plot as a polygon of that area around the point (its overlap, tiles and exports read polygons).

const WGS84_A = 6378137;
const WGS84_E2 = (1 / 298.257223563) * (2 - 1 / 298.257223563);

/**
 * A point plot sent without a polygon: a regular 48-gon of the declared area around its centre (as the field app draws
 * one), in the ellipsoid's local metric at the centre. The farm's area is the declared area itself; the polygon's measured
 * area is within about 0.1 % of it (a 4 ha plot spans some 230 m).
 */
export function pointPlotRings(center: [number, number], areaSqm: number, vertices = 48): [number, number][][] {
  const r = Math.sqrt((2 * areaSqm) / (vertices * Math.sin((2 * Math.PI) / vertices)));
  const rad = Math.PI / 180;
  const phi = center[1] * rad;
  const w = 1 - WGS84_E2 * Math.sin(phi) ** 2;
  const m = (WGS84_A * (1 - WGS84_E2)) / (w * Math.sqrt(w)); // meridional radius
  const n = WGS84_A / Math.sqrt(w); // prime-vertical radius
  const ring: [number, number][] = [];
  for (let k = 0; k < vertices; k++) {
    const t = (2 * Math.PI * k) / vertices;
    ring.push([center[0] + (r * Math.cos(t)) / (n * Math.cos(phi) * rad), center[1] + (r * Math.sin(t)) / (m * rad)]);
  }
  ring.push(ring[0]!);
  return [ring];
}

// Deterministic demo data for seeding: farm boundary polygons, operational-area polygons and Nigerian people.
// Pure functions of their options (seeded PRNG, no I/O); coordinates are [longitude, latitude] rounded to 7 decimals.
import { createRng, type Rng } from '../lib/prng.js';

/** [longitude, latitude] in degrees (WGS 84). */
export type LngLat = [number, number];

export interface DemoFarm {
  /** Closed ring: 5–9 distinct vertices, first vertex repeated at the end. */
  ring: LngLat[];
  /** Index of the earlier farm this one was deliberately placed to overlap; null for farms that overlap nothing by construction. */
  overlapsWith: number | null;
}

export interface DemoArea {
  name: string;
  /** Closed convex ring, first vertex repeated at the end. */
  ring: LngLat[];
}

export type DemoGender = 'Male' | 'Female';

export interface DemoPerson {
  first_name: string;
  last_name: string;
  gender: DemoGender;
  /** E.164 Nigerian mobile number, e.g. +2348031234567. Unique within one call. */
  phone_number: string;
  /** Lowercase, unique within one call: first.last<n>@example.com */
  email: string;
}

/** Default demo region centre (Oyo State, Nigeria). */
export const DEMO_CENTER: LngLat = [3.7717, 7.6466];

/** Metres per degree of latitude (and of longitude at the equator). */
export const METRES_PER_DEGREE = 111_320;

/** Farm areas are drawn log-uniformly from this range (m²); the allowed range is 2,000–50,000 m² (0.2–5 ha). */
const FARM_AREA_MIN_M2 = 2_500;
const FARM_AREA_MAX_M2 = 45_000;
/** Farm centres are drawn uniformly within this distance (m) of the region centre. */
const FARM_SPREAD_M = 15_000;
/** Extra clearance (m) between the bounding circles of farms that must not overlap. */
const FARM_CLEARANCE_M = 5;
/** Rejection-sampling attempts per farm before the spread radius is widened by 10 %. */
const FARM_MAX_ATTEMPTS = 1_000;
const GRID_CELL_M = 500;

const AREA_SPREAD_M = 11_000;
const AREA_MAX_ATTEMPTS = 200;

/** Distinct salts so the same seed gives unrelated streams for farms, areas and people. */
const SALT_FARMS = 0x0f4a3b21;
const SALT_AREAS = 0x5ee0a7e1;
const SALT_PEOPLE = 0x2c1b9d73;

function saltedRng(seed: number, salt: number): Rng {
  if (!Number.isFinite(seed)) throw new RangeError(`seed must be a finite number, got ${seed}`);
  return createRng((Math.trunc(seed) ^ salt) >>> 0);
}

function assertCount(count: number): void {
  if (!Number.isInteger(count) || count < 0) throw new RangeError(`count must be a non-negative integer, got ${count}`);
}

function round7(x: number): number {
  const r = Math.round(x * 1e7) / 1e7;
  return r === 0 ? 0 : r; // no -0
}

type Vec = [number, number];

/** Local equirectangular frame around a centre: metres east/north ⇄ degrees. */
interface Frame {
  lng0: number;
  lat0: number;
  mPerDegLng: number;
}

function makeFrame(center: LngLat): Frame {
  const [lng0, lat0] = center;
  if (!Number.isFinite(lng0) || !Number.isFinite(lat0) || Math.abs(lng0) > 180 || Math.abs(lat0) > 80) {
    throw new RangeError(`center must be [lng, lat] with |lng| <= 180 and |lat| <= 80, got [${lng0}, ${lat0}]`);
  }
  return { lng0, lat0, mPerDegLng: METRES_PER_DEGREE * Math.cos((lat0 * Math.PI) / 180) };
}

function toLngLat(frame: Frame, x: number, y: number): LngLat {
  return [round7(frame.lng0 + x / frame.mPerDegLng), round7(frame.lat0 + y / METRES_PER_DEGREE)];
}

/** Converts metre offsets (x east, y north) to a closed, rounded [lng, lat] ring. */
function closedRing(frame: Frame, cx: number, cy: number, pts: readonly Vec[]): LngLat[] {
  const ring = pts.map(([x, y]) => toLngLat(frame, cx + x, cy + y));
  const first = ring[0];
  if (first === undefined) throw new Error('closedRing: no vertices');
  ring.push([first[0], first[1]]);
  return ring;
}

/** Signed shoelace area of an open ring (positive for counter-clockwise). */
function signedArea(pts: readonly Vec[]): number {
  let s = 0;
  for (let i = 0; i < pts.length; i++) {
    const a = pts[i] as Vec;
    const b = pts[(i + 1) % pts.length] as Vec;
    s += a[0] * b[1] - b[0] * a[1];
  }
  return s / 2;
}

/** Distance from the origin to segment ab. */
function originToSegment(a: Vec, b: Vec): number {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : Math.min(1, Math.max(0, -(a[0] * dx + a[1] * dy) / len2));
  return Math.hypot(a[0] + t * dx, a[1] + t * dy);
}

interface FarmShape {
  /** Vertices in metres relative to the farm centre, counter-clockwise, star-shaped around (0, 0). */
  pts: Vec[];
  /** Bounding-circle radius (m): no vertex is farther from the centre. */
  outer: number;
  /** Inscribed radius (m) around the centre: the disc of this radius lies inside the polygon. */
  inner: number;
}

/**
 * A star-shaped polygon around the origin: n vertices at strictly increasing angles (jitter below half a step,
 * so consecutive gaps stay < π) with radii in [0.72, 1], then stretched/rotated (a linear map keeps it simple)
 * and scaled to an area drawn log-uniformly in [FARM_AREA_MIN_M2, FARM_AREA_MAX_M2].
 */
function makeFarmShape(rng: Rng): FarmShape {
  const n = rng.int(5, 9);
  const step = (2 * Math.PI) / n;
  const start = rng.next() * 2 * Math.PI;
  const stretch = 1 + rng.next() * 0.8;
  const theta = rng.next() * Math.PI;
  const cosT = Math.cos(theta);
  const sinT = Math.sin(theta);

  const unit: Vec[] = [];
  for (let i = 0; i < n; i++) {
    const angle = start + i * step + (rng.next() * 2 - 1) * 0.3 * step;
    const r = 0.72 + rng.next() * 0.28;
    const x = Math.cos(angle) * r * stretch;
    const y = (Math.sin(angle) * r) / stretch;
    unit.push([x * cosT - y * sinT, x * sinT + y * cosT]);
  }

  const logMin = Math.log(FARM_AREA_MIN_M2);
  const target = Math.exp(logMin + rng.next() * (Math.log(FARM_AREA_MAX_M2) - logMin));
  const scale = Math.sqrt(target / signedArea(unit));
  const pts = unit.map(([x, y]): Vec => [x * scale, y * scale]);

  let outer = 0;
  let inner = Number.POSITIVE_INFINITY;
  for (let i = 0; i < pts.length; i++) {
    const a = pts[i] as Vec;
    const b = pts[(i + 1) % pts.length] as Vec;
    outer = Math.max(outer, Math.hypot(a[0], a[1]));
    inner = Math.min(inner, originToSegment(a, b));
  }
  return { pts, outer, inner };
}

interface PlacedFarm {
  x: number;
  y: number;
  outer: number;
  inner: number;
}

/** Uniform grid over bounding circles, for fast "does this circle hit any placed circle" queries. */
class CircleGrid {
  private readonly cells = new Map<number, number[]>();

  constructor(private readonly farms: PlacedFarm[]) {}

  private static key(ix: number, iy: number): number {
    return (ix + 1_000_000) * 2_000_003 + (iy + 1_000_000);
  }

  private forCells(x: number, y: number, r: number, fn: (key: number) => void): void {
    const x0 = Math.floor((x - r) / GRID_CELL_M);
    const x1 = Math.floor((x + r) / GRID_CELL_M);
    const y0 = Math.floor((y - r) / GRID_CELL_M);
    const y1 = Math.floor((y + r) / GRID_CELL_M);
    for (let ix = x0; ix <= x1; ix++) for (let iy = y0; iy <= y1; iy++) fn(CircleGrid.key(ix, iy));
  }

  add(index: number): void {
    const f = this.farms[index];
    if (f === undefined) return;
    this.forCells(f.x, f.y, f.outer, (key) => {
      const list = this.cells.get(key);
      if (list === undefined) this.cells.set(key, [index]);
      else list.push(index);
    });
  }

  /** True when a circle at (x, y) with radius r (plus clearance) would touch any placed circle. */
  hits(x: number, y: number, r: number): boolean {
    let hit = false;
    this.forCells(x, y, r + FARM_CLEARANCE_M, (key) => {
      if (hit) return;
      for (const i of this.cells.get(key) ?? []) {
        const f = this.farms[i];
        if (f !== undefined && Math.hypot(f.x - x, f.y - y) < f.outer + r + FARM_CLEARANCE_M) {
          hit = true;
          return;
        }
      }
    });
    return hit;
  }
}

/** Chooses exactly k distinct indices from 1..count-1 (index 0 has nothing earlier to overlap). */
function chooseOverlapIndices(rng: Rng, count: number, k: number): Set<number> {
  const pool = Array.from({ length: Math.max(0, count - 1) }, (_, i) => i + 1);
  const chosen = new Set<number>();
  for (let i = 0; i < k && i < pool.length; i++) {
    const j = rng.int(i, pool.length - 1);
    const a = pool[i] as number;
    const b = pool[j] as number;
    pool[i] = b;
    pool[j] = a;
    chosen.add(b);
  }
  return chosen;
}

/**
 * Farm boundary polygons scattered within ~15 km of `center` (default DEMO_CENTER), each 0.2–5 ha.
 * round(count × overlapShare) farms (default share 0.08) are placed to overlap an earlier farm: centre offset
 * below 0.6 × (sum of bounding radii) and below the sum of inscribed radii, so the polygons really share area.
 * Every other farm's bounding circle keeps clear of all other farms' circles. If the region fills up, the
 * spread radius is widened by 10 % after each 1,000 failed attempts, so very large counts still terminate.
 */
export function buildDemoFarms(opts: { seed: number; count: number; center?: LngLat; overlapShare?: number }): DemoFarm[] {
  const { seed, count, center = DEMO_CENTER, overlapShare = 0.08 } = opts;
  assertCount(count);
  if (!Number.isFinite(overlapShare) || overlapShare < 0 || overlapShare > 1) {
    throw new RangeError(`overlapShare must be within [0, 1], got ${overlapShare}`);
  }
  const frame = makeFrame(center);
  const rng = saltedRng(seed, SALT_FARMS);
  const overlapping = chooseOverlapIndices(rng, count, Math.round(count * overlapShare));

  const placed: PlacedFarm[] = [];
  const grid = new CircleGrid(placed);
  const out: DemoFarm[] = [];
  let spread = FARM_SPREAD_M;

  for (let i = 0; i < count; i++) {
    const shape = makeFarmShape(rng);
    let x = 0;
    let y = 0;
    let overlapsWith: number | null = null;

    if (overlapping.has(i)) {
      const j = rng.int(0, i - 1);
      const target = placed[j] as PlacedFarm;
      const maxOffset = Math.min(0.6 * (shape.outer + target.outer), 0.95 * (shape.inner + target.inner));
      const d = (0.35 + rng.next() * 0.6) * maxOffset;
      const dir = rng.next() * 2 * Math.PI;
      x = target.x + d * Math.cos(dir);
      y = target.y + d * Math.sin(dir);
      overlapsWith = j;
    } else {
      for (let attempt = 1; ; attempt++) {
        const r = (spread - shape.outer) * Math.sqrt(rng.next());
        const dir = rng.next() * 2 * Math.PI;
        x = r * Math.cos(dir);
        y = r * Math.sin(dir);
        if (!grid.hits(x, y, shape.outer)) break;
        if (attempt % FARM_MAX_ATTEMPTS === 0) spread *= 1.1;
      }
    }

    placed.push({ x, y, outer: shape.outer, inner: shape.inner });
    grid.add(i);
    out.push({ ring: closedRing(frame, x, y, shape.pts), overlapsWith });
  }
  return out;
}

// prettier-ignore
const AREA_PLACES = [
  'Fiditi', 'Ilora', 'Awe', 'Jobele', 'Akinmorin', 'Iseyin Road', 'Ogbomoso Road', 'Afijio', 'Atiba', 'Oroki',
  'Ajagba', 'Igbeti Road', 'Iware', 'Ipapo', 'Ado-Awaye', 'Okeho Road',
] as const;

/**
 * Convex operational-area polygons (roughly 2–6 km across) within ~11 km of `center` (default DEMO_CENTER),
 * so they cover parts of the farm region. Vertices lie on a rotated ellipse in angular order, hence convex.
 * Areas avoid each other's bounding circles when possible (200 attempts), otherwise they may overlap.
 */
export function buildDemoAreas(opts: { seed: number; count: number; center?: LngLat }): DemoArea[] {
  const { seed, count, center = DEMO_CENTER } = opts;
  assertCount(count);
  const frame = makeFrame(center);
  const rng = saltedRng(seed, SALT_AREAS);
  const placed: Array<{ x: number; y: number; r: number }> = [];
  const out: DemoArea[] = [];

  for (let i = 0; i < count; i++) {
    const a = 1_000 + rng.next() * 2_000;
    const b = a * (0.55 + rng.next() * 0.45);
    const phi = rng.next() * Math.PI;
    const n = rng.int(6, 10);
    const step = (2 * Math.PI) / n;
    const start = rng.next() * 2 * Math.PI;
    const pts: Vec[] = [];
    for (let k = 0; k < n; k++) {
      const t = start + k * step + (rng.next() * 2 - 1) * 0.25 * step;
      const ex = a * Math.cos(t);
      const ey = b * Math.sin(t);
      pts.push([ex * Math.cos(phi) - ey * Math.sin(phi), ex * Math.sin(phi) + ey * Math.cos(phi)]);
    }

    let x = 0;
    let y = 0;
    for (let attempt = 0; attempt < AREA_MAX_ATTEMPTS; attempt++) {
      const r = (AREA_SPREAD_M - a) * Math.sqrt(rng.next());
      const dir = rng.next() * 2 * Math.PI;
      x = r * Math.cos(dir);
      y = r * Math.sin(dir);
      if (placed.every((p) => Math.hypot(p.x - x, p.y - y) >= p.r + a)) break;
    }
    placed.push({ x, y, r: a });
    out.push({ name: `${rng.pick(AREA_PLACES)} Area ${i + 1}`, ring: closedRing(frame, x, y, pts) });
  }
  return out;
}

// prettier-ignore
const MALE_FIRST_NAMES = [
  'Adebayo', 'Oluwaseun', 'Chukwuemeka', 'Emeka', 'Ibrahim', 'Musa', 'Tunde', 'Babatunde', 'Olumide', 'Segun',
  'Chinedu', 'Ikenna', 'Obinna', 'Abdullahi', 'Suleiman', 'Yusuf', 'Kehinde', 'Taiwo', 'Femi', 'Kayode', 'Gbenga',
  'Uche', 'Nnamdi', 'Aliyu', 'Usman', 'Sani', 'Dayo', 'Ayodele', 'Olusegun', 'Rotimi', 'Adewale', 'Ifeanyi',
  'Kelechi', 'Chidi', 'Tope', 'Jide', 'Lanre', 'Bashir', 'Umar', 'Tochukwu',
] as const;

// prettier-ignore
const FEMALE_FIRST_NAMES = [
  'Adaeze', 'Chiamaka', 'Ngozi', 'Funmilayo', 'Folake', 'Aisha', 'Fatima', 'Hauwa', 'Zainab', 'Amina', 'Yetunde',
  'Bukola', 'Titilayo', 'Omolara', 'Ifeoma', 'Nneka', 'Chioma', 'Blessing', 'Adunni', 'Temitope', 'Kemi', 'Bisi',
  'Halima', 'Hadiza', 'Nkechi', 'Amaka', 'Ronke', 'Abimbola', 'Morenike', 'Ebele', 'Simisola', 'Damilola',
  'Jumoke', 'Lola', 'Maryam', 'Uchenna', 'Olamide', 'Oluchi', 'Kafayat', 'Rukayat',
] as const;

// prettier-ignore
const LAST_NAMES = [
  'Adeyemi', 'Okafor', 'Balogun', 'Ogunleye', 'Adewale', 'Nwosu', 'Eze', 'Okonkwo', 'Ibrahim', 'Abubakar', 'Bello',
  'Mohammed', 'Olawale', 'Oladipo', 'Adebayo', 'Ogundipe', 'Afolabi', 'Akinola', 'Oyelaran', 'Ojo', 'Ajayi',
  'Oyewole', 'Olaniyan', 'Alabi', 'Adeleke', 'Odukoya', 'Chukwu', 'Nwachukwu', 'Obi', 'Uzor', 'Onyeka', 'Danjuma',
  'Garba', 'Lawal', 'Salami', 'Yusuf', 'Aminu', 'Oyedepo', 'Akande', 'Babalola', 'Ogunbiyi', 'Oladele', 'Adekunle',
  'Olatunji', 'Ige', 'Fadipe', 'Oyebanji', 'Okeke', 'Igwe', 'Sanni',
] as const;

/** Nigerian mobile number prefixes (without the leading 0). */
// prettier-ignore
const MOBILE_PREFIXES = [
  '701', '703', '704', '705', '706', '708', '802', '803', '805', '806', '807', '808', '809', '810', '811', '812',
  '813', '814', '815', '816', '817', '818', '901', '902', '903', '905', '906', '908', '909', '913', '916',
] as const;

/** People with Nigerian first/last names, gender, unique +234 mobile numbers and unique example.com emails. */
export function buildPeople(opts: { seed: number; count: number }): DemoPerson[] {
  const { seed, count } = opts;
  assertCount(count);
  const rng = saltedRng(seed, SALT_PEOPLE);
  const phones = new Set<string>();
  const out: DemoPerson[] = [];

  for (let i = 0; i < count; i++) {
    const gender: DemoGender = rng.next() < 0.5 ? 'Male' : 'Female';
    const first = rng.pick(gender === 'Male' ? MALE_FIRST_NAMES : FEMALE_FIRST_NAMES);
    const last = rng.pick(LAST_NAMES);
    let phone: string;
    do {
      phone = `+234${rng.pick(MOBILE_PREFIXES)}${String(rng.int(0, 9_999_999)).padStart(7, '0')}`;
    } while (phones.has(phone));
    phones.add(phone);
    out.push({
      first_name: first,
      last_name: last,
      gender,
      phone_number: phone,
      email: `${first}.${last}${i + 1}@example.com`.toLowerCase(),
    });
  }
  return out;
}

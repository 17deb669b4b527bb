// What the console needs to know about the deployment before anything else: the basemap style URL (MAP_STYLE_URL).
import { z } from 'zod';

export const consoleConfig = z.object({
  /** A MapLibre style URL; null means the console's bundled offline style (background + country outlines). */
  map_style_url: z.string().nullable(),
  /** Above this many farms the Farmlands map reads vector tiles (GET /farms/tiles/{z}/{x}/{y}.mvt) instead of GeoJSON. */
  map_tile_threshold: z.number().int(),
});
export type ConsoleConfig = z.infer<typeof consoleConfig>;

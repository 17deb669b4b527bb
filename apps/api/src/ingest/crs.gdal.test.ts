// Issue 28 §1: every vertex of a projected Shapefile, read by the analysis reader, lands within 0.05 m of where PROJ
// (GDAL's ogr2ogr) puts it, for national grids on every continent, with the .prj GDAL writes (ESRI-flavoured, no
// AUTHORITY: resolved by matching the WKT against the registry) and with the OGC WKT1 of the code (AUTHORITY). The files
// are built here by ogr2ogr from WGS84 plots; the reference is ogr2ogr's reprojection of the same Shapefile.
import { describe, expect, it } from 'vitest';
import { parseFile } from './read.js';
import { gdalShapefile, hasOgr2ogr, maxDistanceM, plotsNear } from './crs-gdal.js';
import { definitionOf, transformationAt, transformationsOf } from './crs.js';
import { srsRegistry } from './srs-registry.js';

/** [EPSG code, a point inside its area (lng, lat), what it is]. */
export const GRIDS: Array<[number, number, number, string]> = [
  [28992, 5.3, 52.1, 'Amersfoort / RD New (Netherlands)'],
  [27700, -1.5, 52.6, 'OSGB 1936 / British National Grid'],
  [2154, 2.4, 46.9, 'RGF93 / Lambert-93 (France)'],
  [2048, 19.2, -33.9, 'Hartebeesthoek94 / Lo19 (South Africa)'],
  [2052, 28.1, -26.2, 'Hartebeesthoek94 / Lo27 (South Africa)'],
  [26331, 3.6, 7.4, 'Minna / UTM zone 31N (Nigeria)'],
  [26332, 7.5, 9.1, 'Minna / UTM zone 32N (Nigeria)'],
  [25000, -1.2, 6.7, 'Leigon / Ghana Metre Grid'],
  [32633, 15.2, 50.1, 'WGS 84 / UTM zone 33N'],
  [32737, 36.8, -3.4, 'WGS 84 / UTM zone 37S'],
  [25832, 9.4, 56.2, 'ETRS89 / UTM zone 32N (Denmark)'],
  [31983, -45.6, -22.3, 'SIRGAS 2000 / UTM zone 23S (Brazil)'],
  [7855, 146.9, -36.9, 'GDA2020 / MGA zone 55 (Australia)'],
  // GDA94: two transformations tie (3 m, one area); PROJ takes the null one, GDA94 to WGS 84 (1), by its shorter pipeline.
  [28355, 146.9, -36.9, 'GDA94 / MGA zone 55 (Australia)'],
  [2193, 175.3, -39.6, 'NZGD2000 / NZTM 2000 (New Zealand)'],
  [24047, 100.6, 14.1, 'Indian 1975 / UTM zone 47N (Thailand)'],
  [21037, 37.1, -1.4, 'Arc 1960 / UTM zone 37S (Kenya)'],
  [31254, 10.9, 47.3, 'MGI / Austria GK West'],
  [31255, 14.1, 47.6, 'MGI / Austria GK Central (Styria: MGI to WGS 84 (8))'],
  [31255, 13.1, 47.8, 'MGI / Austria GK Central (Salzburg, outside Styria: MGI to WGS 84 (3))'],
  [31256, 16.3, 48.2, 'MGI / Austria GK East'],
  [2056, 8.2, 46.9, 'CH1903+ / LV95 (Switzerland)'],
  [3067, 25.3, 62.4, 'ETRS89 / TM35FIN (Finland)'],
  [3006, 15.1, 60.2, 'SWEREF99 TM (Sweden)'],
  // Geographic systems other than WGS 84 (issue 28's rerun: an Irish GSAA file in ETRS89 was refused).
  [4258, -7.9, 53.2, 'ETRS89 geographic (Ireland)'],
  [4674, -45.9, -12.1, 'SIRGAS 2000 geographic (Brazil)'],
  [4269, -93.6, 42.0, 'NAD83 geographic (United States)'],
  [4289, 5.3, 52.1, 'Amersfoort geographic (Netherlands)'],
  [4263, 7.5, 9.1, 'Minna geographic (Nigeria)'],
  [4283, 146.9, -36.9, 'GDA94 geographic (Australia)'],
  // PROJ sorts by the area within the CRS's area of use before accuracy, and an area described "- offshore" never
  // displaces another (docs/decisions/0097-proj-tie-break-for-datum-transformations.md); before, 0.5–24 m off.
  [23030, -3.7, 40.4, 'ED50 / UTM zone 30N (Spain, Madrid)'],
  [23030, -4.36, 55.005, 'ED50 / UTM zone 30N (Scotland: ED50 to WGS 84 (2), not the offshore (18))'],
  [23031, 4.47, 53.61, 'ED50 / UTM zone 31N (North Sea, Netherlands offshore)'],
  [24878, -77.0, -12.0, 'PSAD56 / UTM zone 18S (Peru)'],
  [20935, 28.3, -15.4, 'Arc 1950 / UTM zone 35S (Zambia)'],
  [20935, 28.235, -29.615, 'Arc 1950 / UTM zone 35S (Lesotho: Arc 1950 to WGS 84 (1))'],
  [26332, 6.165, 3.74, "Minna / UTM zone 32N (offshore Nigeria, within the grid's area)"],
  // Operations of other methods than the Helmert ones, implemented by datum-shift.ts (addendum of 0097): 4.7–11 m, 0.43 m,
  // 0.27–0.60 m and 26.8 m off before.
  [24819, -67.5, 9.0, 'PSAD56 / UTM zone 19N (Venezuela: PSAD56 to WGS 84 (13), Molodensky-Badekas)'],
  [5456, -84.2, 10.3, 'Ocotepeque 1935 / Costa Rica Norte (Ocotepeque 1935 to WGS 84 (2), Molodensky-Badekas)'],
  [5451, -83.9, 9.4, 'Ocotepeque 1935 geographic (Costa Rica)'],
  [31467, 9.9, 51.5, 'DHDN / 3-degree Gauss-Kruger zone 3 (Germany: DHDN to WGS 84 (4), the BETA2007 grid)'],
  [31468, 12.4, 51.3, 'DHDN / 3-degree Gauss-Kruger zone 4 (Leipzig, former East Germany)'],
  [4314, 7.1, 50.7, 'DHDN geographic (Bonn)'],
  [3148, 106.6, 8.7, 'Indian 1960 / UTM zone 48N (Con Son: Indian 1960 to WGS 84 (1), a concatenated operation)'],
];

type Polygon = { type: 'Polygon'; coordinates: number[][][] };
const geometriesOf = (zip: Buffer) => parseFile(zip, 'plots.zip').rows.map((r) => r['farm_coordinates'] as Polygon);

describe.skipIf(!hasOgr2ogr())('coordinate systems against PROJ (ogr2ogr)', () => {
  if (!hasOgr2ogr()) console.warn('ogr2ogr (Debian gdal-bin) is not installed: the comparison with PROJ is skipped');

  it.each(GRIDS)(
    'EPSG:%i: every vertex within 0.05 m of GDAL, .prj with and without AUTHORITY',
    (code, lng, lat, what) => {
      // The reference for the arithmetic: PROJ given the Helmert transformation the reader chose here, as a definition
      // (another kind has no PROJ.4 form: PROJ's default for the code is the reference then).
      const entry = srsRegistry().byCode.get(code)!;
      const chosen = transformationAt(transformationsOf(entry.geog, code), lng, lat);
      const reference = !chosen || chosen.kind === 'helmert' ? definitionOf(entry, chosen?.params ?? entry.towgs84) : `EPSG:${code}`;
      const g = gdalShapefile(code, plotsNear(lng, lat), reference);
      expect(g.esriPrj, 'GDAL writes an ESRI .prj without AUTHORITY').not.toMatch(/AUTHORITY/);
      expect(g.ogcWkt).toMatch(new RegExp(`AUTHORITY\\["EPSG","${code}"\\]\\]$`));
      const esri = geometriesOf(g.zip(g.esriPrj));
      const ogc = geometriesOf(g.zip(g.ogcWkt));
      const vsHelmert = maxDistanceM(esri, g.helmert);
      const vsDefault = maxDistanceM(esri, g.default);
      // Recorded per grid (docs/decisions/0037-crs-registry-from-postgis-spatial-ref-sys.md).
      console.info(
        `EPSG:${code} ${what} (${chosen?.name ?? "the registry's towgs84"}): max vertex distance to PROJ's default for EPSG:${code} ${vsDefault.toFixed(4)} m, to PROJ with the same ${chosen?.kind ?? 'helmert'} ${vsHelmert.toFixed(4)} m`,
      );
      expect(vsDefault, `${what} vs PROJ's default for EPSG:${code} (ogr2ogr)`).toBeLessThan(0.05);
      expect(vsHelmert, `${what} vs PROJ with the same transformation`).toBeLessThan(0.05);
      expect(maxDistanceM(ogc, esri), 'the .prj with AUTHORITY places the file as the one without').toBeLessThan(0.001);
    },
    60_000,
  );
});

// GET /api/config: public, answers the map's basemap style URL (MAP_STYLE_URL, null by default) and tile threshold.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { testEnv } from '../../test/harness.js';

describe('GET /api/config', () => {
  it('is public and gives the map settings (no style URL by default: the console uses its offline style)', async () => {
    const env = await testEnv();
    const res = await env.as('anonymous').get('/api/config');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ map_style_url: null, map_tile_threshold: 5000 });
  });

  it('reads MAP_STYLE_URL and MAP_TILE_THRESHOLD once, and refuses a style URL that is not a URL', () => {
    const c = loadConfig({ MAP_STYLE_URL: 'https://tiles.example/style.json', MAP_TILE_THRESHOLD: '2000' });
    expect(c.mapStyleUrl).toBe('https://tiles.example/style.json');
    expect(c.mapTileThreshold).toBe(2000);
    expect(loadConfig({ MAP_STYLE_URL: '' }).mapStyleUrl).toBeNull();
    expect(() => loadConfig({ MAP_STYLE_URL: 'not a url' })).toThrow(/MAP_STYLE_URL/);
  });
});

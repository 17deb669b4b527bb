// The process configuration's rules that span variables (config.ts).
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

const pg = { DATABASE_URL: 'postgres://app@127.0.0.1:5432/x' };

describe('API_PROCESSES', () => {
  it('defaults to one process, takes a number or auto on PostgreSQL', () => {
    expect(loadConfig({}).apiProcesses).toBe(1);
    expect(loadConfig({ ...pg, API_PROCESSES: '3' }).apiProcesses).toBe(3);
    expect(loadConfig({ ...pg, API_PROCESSES: 'auto' }).apiProcesses).toBeGreaterThanOrEqual(1);
    expect(loadConfig({ API_PROCESSES: '' }).apiProcesses).toBe(1);
  });

  it('refuses more than one process on the embedded database, and values out of range, naming the variable', () => {
    expect(() => loadConfig({ API_PROCESSES: '2' })).toThrow(ConfigError);
    expect(() => loadConfig({ API_PROCESSES: '2' })).toThrow(/API_PROCESSES: 2 needs PostgreSQL/);
    for (const bad of ['0', '65', 'many', '1.5']) {
      expect(() => loadConfig({ ...pg, API_PROCESSES: bad })).toThrow(/API_PROCESSES/);
    }
  });
});

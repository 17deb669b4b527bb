// Vitest configuration for the API: unit tests live next to the code as src/**/*.test.ts.
import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { include: ['src/**/*.test.ts'] } });

// What jsdom lacks and Ant Design reads: matchMedia (Grid breakpoints, responsive observers) and ResizeObserver
// (tables, overflow). Imported first by the route tests (they run in jsdom: `// @vitest-environment jsdom`).
import { afterEach, vi } from 'vitest';
import { cleanup, configure } from '@testing-library/react';

// An antd table renders slowly in jsdom, and the machines that run the suite are often busy: the route tests wait on
// state (findBy, waitFor) for up to 15 s and each test may take 60 s. They never wait on a clock.
configure({ asyncUtilTimeout: 15_000 });
vi.setConfig({ testTimeout: 60_000 });

if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList;
}
if (!('ResizeObserver' in window)) {
  (window as unknown as { ResizeObserver: unknown }).ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
}
// antd measures scroll bars through getComputedStyle with a pseudo-element, which jsdom does not implement.
const computed = window.getComputedStyle.bind(window);
window.getComputedStyle = (el: Element) => computed(el);

afterEach(() => cleanup());

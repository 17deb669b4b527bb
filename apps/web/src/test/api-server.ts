// The mocked API of the route tests (MSW): every request the console sends is answered here, and recorded, so a test
// can assert what was sent (the query parameters of a list, the body of a wizard). Unhandled requests fail the test.
import { http, HttpResponse, type JsonBodyType } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';

export const sent: URL[] = [];

export const server = setupServer(
  // Payload encryption off: the console then sends and reads plain JSON.
  http.get('*/api/crypto/key', () => HttpResponse.json({ data: { mode: 'off', key: null } })),
);

server.events.on('request:start', ({ request }) => {
  sent.push(new URL(request.url));
});

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  sent.length = 0;
});
afterAll(() => server.close());

/** The requests sent to one API path (e.g. '/api/accounts/agents/'), oldest first. */
export const requestsTo = (path: string) => sent.filter((u) => u.pathname === path);

/** A list page in the API's envelope. */
export const listPage = <T extends JsonBodyType>(results: T[], count = results.length) =>
  HttpResponse.json({ data: { count, next: null, previous: null, results } });

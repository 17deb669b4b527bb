// The live overlap worker (live-overlap-engine.ts, live-overlap-handler.ts): the candidates' index, then one figure per ring asked for.
import { liveOverlapHandler, type LiveRequest } from './live-overlap-handler';

const handle = liveOverlapHandler();
self.onmessage = (e: MessageEvent<LiveRequest>) => {
  const reply = handle(e.data);
  if (reply) self.postMessage(reply);
};

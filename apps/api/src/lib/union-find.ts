// Connected components of a graph given as pairs (union-find with path compression). Each node maps to its component's
// smallest member, so a component's label depends only on its membership. Graph work only: no geometry here.
export function componentsOf<T extends string | number>(pairs: Iterable<readonly [T, T]>): Map<T, T> {
  const parent = new Map<T, T>();
  const find = (x: T): T => {
    let r = x;
    while (parent.get(r) !== r) r = parent.get(r)!;
    let c = x;
    while (c !== r) {
      const next = parent.get(c)!;
      parent.set(c, r);
      c = next;
    }
    return r;
  };
  for (const [a, b] of pairs) {
    if (!parent.has(a)) parent.set(a, a);
    if (!parent.has(b)) parent.set(b, b);
    const ra = find(a);
    const rb = find(b);
    if (ra < rb) parent.set(rb, ra);
    else if (rb < ra) parent.set(ra, rb);
  }
  const out = new Map<T, T>();
  for (const node of parent.keys()) out.set(node, find(node));
  return out;
}

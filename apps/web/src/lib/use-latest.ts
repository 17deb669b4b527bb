// The latest value of a prop, for effects and timers that must call the newest callback without re-running when its
// identity changes (a parent's inline function). The ref is written after render, as the rules of hooks ask.
import { useLayoutEffect, useRef } from 'react';

export function useLatest<T>(value: T) {
  const ref = useRef(value);
  useLayoutEffect(() => {
    ref.current = value;
  });
  return ref;
}

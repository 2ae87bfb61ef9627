import { useEffect, useRef } from 'react';
import { useRealtimeConnected } from '../api/realtime';

/**
 * Calls `fn` each time the live connection comes back after being down (events sent meanwhile were
 * missed: the spec recovers them by reading the list again). Not on the first connection.
 */
export function useOnReconnect(fn: () => void): void {
  const connected = useRealtimeConnected();
  const wasDown = useRef(false);
  const everUp = useRef(connected);
  const saved = useRef(fn);
  saved.current = fn;
  useEffect(() => {
    if (!connected) {
      if (everUp.current) wasDown.current = true;
      return;
    }
    everUp.current = true;
    if (wasDown.current) {
      wasDown.current = false;
      saved.current();
    }
  }, [connected]);
}

/** A function that runs `fn` once, `ms` after the last of a burst of calls. */
export function useDebounced(fn: () => void, ms: number): () => void {
  const saved = useRef(fn);
  saved.current = fn;
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const call = useRef(() => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => saved.current(), ms);
  });
  useEffect(() => () => clearTimeout(timer.current), []);
  return call.current;
}

import { setMaxListeners } from 'node:events';

export interface LinkedSignal {
  /** Aborts as soon as any of the sources does, with that source's reason. */
  readonly signal: AbortSignal;
  /** Stops listening to the sources; call it when the work the signal guards has ended. */
  dispose(): void;
}

/**
 * One signal for several sources; `reasonFor` turns the source's reason into the linked signal's
 * (default: the same). Written out rather than `AbortSignal.any()`, which has no way to let go of
 * its sources: what it attaches to the client's long-lived signals stays until garbage collection
 * finds it, whereas here `dispose()` removes it as soon as the call ends.
 */
export function linkSignals(sources: readonly AbortSignal[], reasonFor: (sourceReason: unknown) => unknown = (r) => r): LinkedSignal {
  const controller = new AbortController();
  // A retry loop listens to it from its queue slot, its send and its backoff: a few at once, not a leak.
  setMaxListeners(0, controller.signal);
  const already = sources.find((s) => s.aborted);
  if (already) {
    controller.abort(reasonFor(already.reason));
    return { signal: controller.signal, dispose: () => {} };
  }
  const listeners = sources.map((source) => {
    const onAbort = () => controller.abort(reasonFor(source.reason));
    source.addEventListener('abort', onAbort, { once: true });
    return () => source.removeEventListener('abort', onAbort);
  });
  return {
    signal: controller.signal,
    dispose: () => {
      for (const remove of listeners) remove();
    },
  };
}

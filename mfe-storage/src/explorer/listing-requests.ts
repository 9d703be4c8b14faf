/**
 * The listing call in flight per folder path. A newer call for the same folder, or closing the folder,
 * aborts the older one; what an aborted or superseded call brings back is dropped.
 */
export function listingRequests() {
  const inFlight = new Map<string, { id: number; abort: () => void }>();
  let sequence = 0;

  const abortExcept = (keep: (path: string) => boolean) => {
    for (const [path, request] of inFlight) {
      if (keep(path)) continue;
      request.abort();
      inFlight.delete(path);
    }
  };

  return {
    /**
     * Records a call for `path`, aborting the one before it. Call the returned `settle` when the call
     * comes back: true while it is still the folder's current call (then it is forgotten).
     */
    start(path: string, abort: () => void): () => boolean {
      inFlight.get(path)?.abort();
      sequence += 1;
      const id = sequence;
      inFlight.set(path, { id, abort });
      return () => {
        if (inFlight.get(path)?.id !== id) return false;
        inFlight.delete(path);
        return true;
      };
    },
    /** Aborts the calls of every folder that `keep` does not keep. */
    abortExcept,
    abortAll: () => abortExcept(() => false),
  };
}

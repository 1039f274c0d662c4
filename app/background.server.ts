/**
 * Work the app does after answering a request (quoting a selection, booking a batch, writing fulfillments
 * back). Each piece of work persists its own progress, so this only keeps one runner per key in this
 * process and logs what escapes; after a restart the owning module picks its work up from the database.
 */
const running = new Map<string, Promise<void>>();

/** Starts `work` unless work under the same key is already running here; resolves when that work ends. */
export function runInBackground(key: string, work: () => Promise<void>): Promise<void> {
  const current = running.get(key);
  if (current) return current;
  const task = (async () => {
    try {
      await work();
    } catch (error) {
      console.error(`[consign] background work ${key} failed:`, error);
    } finally {
      running.delete(key);
    }
  })();
  running.set(key, task);
  return task;
}

export function isRunningInBackground(key: string): boolean {
  return running.has(key);
}

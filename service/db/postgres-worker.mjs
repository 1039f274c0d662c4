// The PostgreSQL connection of the service's store (postgres-store.ts), in a worker thread so the store
// can wait for each answer synchronously: it posts a request, blocks on `signal` until this worker has
// posted the answer, and reads it. Plain JavaScript: a worker thread gets no TypeScript loader.
import { workerData } from "node:worker_threads";
import pg from "pg";

const { url, port, signal } = workerData;
const done = new Int32Array(signal);

// Values as the SQLite store returns them: counts and sums as numbers, timestamps as the ISO strings the
// service writes (columns are `timestamp(3)` without a zone, holding UTC).
pg.types.setTypeParser(20, (text) => Number(text));
pg.types.setTypeParser(1700, (text) => Number(text));
pg.types.setTypeParser(1114, (text) => new Date(`${text.replace(" ", "T")}Z`).toISOString());
pg.types.setTypeParser(1184, (text) => new Date(text).toISOString());

const client = new pg.Client({ connectionString: url });
const connected = client.connect();
client.on("error", () => undefined); // a lost connection fails the next query, which reports it

port.on("message", async (request) => {
  let answer;
  try {
    await connected;
    if (request.kind === "close") {
      await client.end();
      answer = { ok: true };
    } else {
      const result = await client.query({ text: request.text, values: request.values });
      answer = { ok: true, rows: result.rows ?? [], rowCount: result.rowCount ?? 0 };
    }
  } catch (error) {
    answer = { ok: false, message: error instanceof Error ? error.message : String(error), code: error?.code };
  }
  port.postMessage({ ...answer, id: request.id });
  Atomics.store(done, 0, 1);
  Atomics.notify(done, 0);
  if (request.kind === "close") port.close();
});

import fc from "fast-check";

/**
 * What the fuzz suites share (the Shipping API service's, test/fuzz/service-fuzz.ts, and the app's,
 * test/fuzz/app-fuzz.ts): the hostile values, the mutations of a JSON value, the raw requests an HTTP client
 * would not send, and the seeded run that names the seed and the request to replay when something breaks.
 */

type Shape = Record<string, unknown>;
export type Path = (string | number)[];

/** A broken promise of the system under test; the message is what the run prints. */
export class FuzzFailure extends Error {}

/** Every path to a value inside a JSON value (the root included). */
export function pathsOf(value: unknown, prefix: Path = [], out: Path[] = []): Path[] {
  out.push(prefix);
  if (Array.isArray(value)) value.forEach((item, index) => pathsOf(item, [...prefix, index], out));
  else if (value && typeof value === "object") for (const [key, item] of Object.entries(value)) pathsOf(item, [...prefix, key], out);
  return out;
}

function cloneJson<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

/** Sets (or, with `remove`, deletes) the value at `path`; returns the new root. Own `__proto__` keys are set as data. */
export function setAt(root: unknown, path: Path, value: unknown, remove = false): unknown {
  if (path.length === 0) return value;
  const copy = cloneJson(root);
  let node = copy as Shape;
  for (const key of path.slice(0, -1)) node = node[key as string] as Shape;
  const last = path[path.length - 1]!;
  if (remove) {
    if (Array.isArray(node)) node.splice(last as number, 1);
    else delete node[last as string];
  } else {
    Object.defineProperty(node, last, { value, enumerable: true, writable: true, configurable: true });
  }
  return copy;
}

export const NUMERIC_EDGES: unknown[] = [
  0,
  -0,
  -1,
  -0.0001,
  1e308,
  -1e308,
  5e-324,
  2 ** 53,
  2 ** 53 + 2,
  1e21,
  "-0.0001",
  "0",
  "-1",
  "1e400",
  "NaN",
  "Infinity",
  "0x10",
  " 7",
  "1,5",
  "",
  "00.5",
  "9".repeat(60),
];

export const STRANGE_STRINGS = [
  "",
  " ",
  "\u0000",
  "\u202e\u0645\u0631\u062d\u0628\u0627",
  "\ud83d\udce6\ud83d\ude9a",
  "\ud800",
  "Ω≈ç√∫",
  "' OR 1=1 --",
  "<script>alert(1)</script>",
  "../../etc/passwd",
  "%00",
  "\r\nX-Injected: 1",
  "null",
  "true",
  "𝕏".repeat(300),
];

export const WRONG_TYPES: unknown[] = [null, true, false, 0, -1, "text", [], {}, [null], { nested: { deeper: [] } }];

/** Values a hostile form field takes: edges of numbers, control and bidi characters, injections, a long value, the pages' intents. */
export const HOSTILE_FORM_VALUES = [
  "",
  " ",
  "-1",
  "0",
  "-0.0001",
  "1e400",
  "NaN",
  "99999999999999999999999",
  "\u0000",
  "\ud83d\udce6",
  "\u202e",
  "'; DROP TABLE Batch; --",
  "<script>alert(1)</script>",
  "x".repeat(100_000),
  "create",
  "book",
  "cancel",
  "delete",
  "retry",
  "requote",
  "connect",
  "remove",
];

/** The kinds of mutation {@link jsonMutations} and {@link badJsonTexts} make, as their descriptions begin. */
export const JSON_MUTATION_KINDS = ["wrong type", "numeric edge", "strange string", "long string", "missing", "extra field", "nesting", "bad JSON"] as const;

/** Path ids no route takes, already percent-encoded (some break the encoding on purpose). */
export const BAD_IDS = [
  "abc",
  "0",
  "-1",
  "1.5",
  "1e3",
  "0x10",
  "%ZZ",
  "%E2%82",
  "%",
  "%00",
  "99999999999999999999999",
  "9007199254740993",
  "%20",
  encodeURIComponent("📦"),
  encodeURIComponent("'; DROP TABLE Batch; --"),
  "..",
  "x".repeat(300),
  "1".repeat(2_000),
];

/** A JSON value changed the way a hostile or broken client would change it. */
export interface JsonMutation {
  /** The value to send (for a text mutation, the value it was made from). */
  body: unknown;
  /** The body as sent, when the mutation works on the text (deep nesting is written as text). */
  bodyText?: string;
  mutation: string;
  /** The longest string put in, in UTF-16 code units (long-string mutations). */
  longestString?: number;
  /** How deep the nesting put in is (nesting mutations). */
  depth?: number;
}

/**
 * The mutations of a JSON value, each an arbitrary: a wrong type, a numeric edge or a strange string
 * anywhere, a long string, a missing field, an extra field (`__proto__` among them), deep nesting.
 */
export function jsonMutations(body: unknown): fc.Arbitrary<JsonMutation>[] {
  const paths = pathsOf(body);
  const leafPaths = paths.filter((path) => path.length > 0);
  const pick = fc.constantFrom(...paths);
  const at = (path: Path) => path.join(".") || "(root)";
  const objectPaths = paths.filter((path) => {
    let node: unknown = body;
    for (const key of path) node = (node as Shape)[key as string];
    return node !== null && typeof node === "object" && !Array.isArray(node);
  });
  const mutations: fc.Arbitrary<JsonMutation>[] = [
    fc.tuple(pick, fc.constantFrom(...WRONG_TYPES)).map(([path, value]) => ({ body: setAt(body, path, value), mutation: `wrong type at ${at(path)}` })),
    fc
      .tuple(pick, fc.constantFrom(...NUMERIC_EDGES))
      .map(([path, value]) => ({ body: setAt(body, path, value), mutation: `numeric edge ${JSON.stringify(value)} at ${at(path)}` })),
    fc.tuple(pick, fc.constantFrom(...STRANGE_STRINGS)).map(([path, value]) => ({ body: setAt(body, path, value), mutation: `strange string at ${at(path)}` })),
    fc.tuple(pick, fc.constantFrom(300, 5_000, 200_000, 1_500_000), fc.constantFrom("x", "é", "\ud83d\udce6")).map(([path, length, unit]) => ({
      body: setAt(body, path, unit.repeat(length)),
      mutation: `${length}-character string at ${at(path)}`,
      longestString: length * unit.length,
    })),
  ];
  if (leafPaths.length > 0) {
    mutations.push(fc.constantFrom(...leafPaths).map((path) => ({ body: setAt(body, path, undefined, true), mutation: `missing ${path.join(".")}` })));
  }
  if (objectPaths.length > 0) {
    mutations.push(
      fc
        .tuple(
          fc.constantFrom(...objectPaths),
          fc.constantFrom("__proto__", "constructor", "prototype", "extra", "toString"),
          fc.constantFrom<unknown>({ polluted: true }, "x", 1, { prototype: { polluted: true } }),
        )
        .map(([path, key, value]) => ({ body: setAt(body, [...path, key], value), mutation: `extra field ${key} at ${at(path)}` })),
    );
  }
  // Deep nesting is written as text: building it as a value would cost the fuzzer more than the server.
  mutations.push(
    fc.tuple(pick, fc.constantFrom(100, 10_000, 200_000), fc.constantFrom("[", '{"a":')).map(([path, depth, open]) => {
      const marker = "__deep__";
      const bodyText = JSON.stringify(setAt(body, path, marker)).replace(`"${marker}"`, open.repeat(depth) + (open === "[" ? "]" : "1}").repeat(depth));
      return { body, bodyText, mutation: `nesting ${depth} deep at ${at(path)}`, depth };
    }),
  );
  return mutations;
}

/** Texts that are not the JSON they claim to be, made from the JSON `text` a request would send. */
export function badJsonTexts(text: string): string[] {
  return [
    text.slice(0, Math.max(1, Math.floor(text.length / 2))),
    `${text}}`,
    `${text} trailing`,
    text.replace(/"/, "'"),
    `\ufeff${text}`,
    "NaN",
    "{",
    '{"shipments": [1,]}',
    '{"a": "\\x41"}',
    "\u0000",
    "[]".repeat(1000),
  ];
}

/** Content types a JSON or form body may be sent with by mistake or on purpose. */
export const ODD_CONTENT_TYPES = [
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/xml",
  "",
  "application/jsonx",
  "json",
];

/**
 * Requests an HTTP client would not send, as bytes: lying and conflicting lengths, a bad HTTP version, broken
 * request lines and header names, oversized headers and paths. `getPath` is a path the server answers to GET,
 * `postPath` one it takes POSTs on.
 */
export function rawRequests(getPath: string, postPath: string): string[] {
  return [
    `GET ${getPath} HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
    `GET ${getPath} HTTP/9.9\r\nHost: x\r\n\r\n`,
    "GET\r\n\r\n",
    "\u0000\u0001\u0002\r\n\r\n",
    `GET ${getPath} HTTP/1.1\r\nHost: x\r\nBad Header Name: 1\r\n\r\n`,
    `GET ${getPath} HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n`,
    `POST ${postPath} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\nZZ\r\n{}\r\n0\r\n\r\n`,
    `GET ${getPath} HTTP/1.1\r\nHost: x\r\nX-Padding: ${"a".repeat(70_000)}\r\n\r\n`,
    `GET /${"a".repeat(100_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
    `GET ${getPath} HTTP/1.1\r\n${Array.from({ length: 3_000 }, (_, index) => `X-H${index}: v`).join("\r\n")}\r\n\r\n`,
  ];
}

/** Cuts a long text for a failure message. */
export function clip(text: string, max = 1_500): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length} characters in all)` : text;
}

export interface FuzzRunSummary {
  requests: number;
  /** Requests and time spent per mutation kind. */
  mutations: Map<string, { count: number; ms: number }>;
}

export interface FuzzRunOptions {
  seed: number;
  runs: number;
  /** Called every 500 requests. */
  onProgress?: (done: number) => void;
}

/**
 * Sends `runs` requests from `requests` (fast-check, seeded) through `send`, which throws a
 * {@link FuzzFailure} when an answer breaks a promise. On a failure fast-check shrinks the request; the error
 * thrown names the seed, the replay path and command, what broke and the shrunk request (`describe`).
 */
export async function runSeeded<R>(
  options: FuzzRunOptions & {
    requests: fc.Arbitrary<R>;
    send: (request: R) => Promise<void>;
    kindOf: (request: R) => string;
    describe: (request: R) => string;
    /** The command that replays a run, given the seed and the runs: `npm run fuzz -- --seed 1 --runs 2`. */
    replay: (seed: number, runs: number) => string;
  },
): Promise<FuzzRunSummary> {
  const mutations = new Map<string, { count: number; ms: number }>();
  let requests = 0;
  const property = fc.asyncProperty(options.requests, async (request) => {
    requests += 1;
    const kind = options.kindOf(request);
    const started = performance.now();
    if (requests % 500 === 0) options.onProgress?.(requests);
    try {
      await options.send(request);
    } finally {
      const entry = mutations.get(kind) ?? { count: 0, ms: 0 };
      mutations.set(kind, { count: entry.count + 1, ms: entry.ms + performance.now() - started });
    }
  });
  const details = await fc.check(property, { seed: options.seed, numRuns: options.runs, endOnFailure: false });
  if (details.failed) {
    const [request] = details.counterexample ?? [];
    throw new FuzzFailure(
      `Fuzz failure (seed ${options.seed}, path ${details.counterexamplePath}; replay with ${options.replay(options.seed, options.runs)}):\n` +
        `${details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance)}\n` +
        `shrunk request:\n${request !== undefined ? options.describe(request) : "(none)"}`,
    );
  }
  return { requests, mutations };
}

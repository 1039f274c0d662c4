import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * The app's capability folders (app/<folder>/) and its top-level modules import each other in one direction
 * only: no folder reaches back into a folder that depends on it. The composition root is exempt, because
 * building everything is its job: the routes, the job catalog and queue, start-up, contextFor, the request helper, and
 * the shopifyApp() instance with its install hooks.
 */

const APP = dirname(fileURLToPath(import.meta.url));

const COMPOSITION_ROOT = [
  /^routes\//,
  /^jobs\/(catalog|registry)[^/]*$/,
  /^startup\.server\.ts$/,
  /^entry\.server\.tsx$/,
  /^root\.tsx$/,
  /^request-context\.server\.ts$/,
  /^context\.server\.ts$/,
  /^jobs\/queue\.server\.ts$/,
  /^shopify\.server\.ts$/,
];

/**
 * Modules outside the composition root that still reach for the process's database or Shopify app themselves
 * (docs/decisions/016). None does: job handlers take the queue's services, and webhook routes verify the
 * request in the routes' helper (request-context.server.ts) before the domain takes the shop's context.
 */
const SINGLETON_USERS_NOT_YET_MOVED: readonly string[] = [];

/** The process's singletons: its database client and its shopifyApp() instance. */
const SINGLETONS = ["db.server", "shopify.server"];

type Graph = Map<string, Map<string, string[]>>;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "types" ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test(-d)?\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** app/batches/x.ts → "batches"; a top-level module is its own node: app/db.server.ts → "db.server.ts". */
function nodeOf(file: string): string {
  const parts = relative(APP, file).split(sep);
  return parts.length === 1 ? parts[0]! : parts[0]!;
}

/** Which node imports which, with the imports that make each edge (for the failure message). */
export function folderGraph(): Graph {
  const graph: Graph = new Map();
  for (const file of sourceFiles(APP)) {
    const path = relative(APP, file).split(sep).join("/");
    if (COMPOSITION_ROOT.some((pattern) => pattern.test(path))) continue;
    const from = nodeOf(file);
    const edges = graph.get(from) ?? new Map<string, string[]>();
    graph.set(from, edges);
    for (const { fileName } of ts.preProcessFile(readFileSync(file, "utf8"), true, true).importedFiles) {
      if (!fileName.startsWith(".")) continue;
      const target = resolve(dirname(file), fileName.replace(/\.js$/, ""));
      if (!target.startsWith(APP + sep)) continue;
      const to = nodeOf(relative(APP, target).includes(sep) ? target : `${target}.ts`);
      if (to === from) continue;
      edges.set(to, [...(edges.get(to) ?? []), `${path} → ${fileName}`]);
    }
  }
  return graph;
}

/** Modules outside the composition root (and the singletons themselves) that import a process singleton. */
function singletonUsers(): string[] {
  return sourceFiles(APP)
    .map((file) => ({ file, path: relative(APP, file).split(sep).join("/") }))
    .filter(({ path }) => !COMPOSITION_ROOT.some((pattern) => pattern.test(path)) && !SINGLETONS.some((name) => path.startsWith(`${name}.`)))
    .filter(({ file }) =>
      ts
        .preProcessFile(readFileSync(file, "utf8"), true, true)
        .importedFiles.some(({ fileName }) => fileName.startsWith(".") && SINGLETONS.includes(resolve(dirname(file), fileName).slice(APP.length + 1))),
    )
    .map(({ path }) => path)
    .sort();
}

/** Every cycle of the graph, as its strongly connected components of more than one node (Tarjan). */
export function cycles(graph: Graph): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    indices.set(node, index);
    low.set(node, index++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node)?.keys() ?? []) {
      if (!indices.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, indices.get(next)!));
    }
    if (low.get(node) === indices.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!indices.has(node)) visit(node);
  return found;
}

/** A cycle in words: its nodes and, for each edge inside it, the imports that make it. */
function describeCycle(graph: Graph, component: readonly string[]): string {
  const lines = [`cycle between ${component.join(", ")}:`];
  for (const from of component)
    for (const [to, imports] of graph.get(from) ?? []) if (component.includes(to)) lines.push(`  ${from} → ${to}: ${imports.join("; ")}`);
  return lines.join("\n");
}

describe("the app's import graph", () => {
  it("finds a cycle when there is one, naming its folders and imports", () => {
    const graph: Graph = new Map([
      ["booking", new Map([["batches", ["booking/a.ts → ../batches/b"]]])],
      ["batches", new Map([["quoting", ["batches/b.ts → ../quoting/c"]]])],
      ["quoting", new Map([["booking", ["quoting/c.ts → ../booking/a"]]])],
      ["shipping", new Map()],
    ]);
    const found = cycles(graph);
    expect(found).toEqual([["batches", "booking", "quoting"]]);
    expect(describeCycle(graph, found[0]!)).toContain("quoting → booking: quoting/c.ts → ../booking/a");
    expect(cycles(new Map([["booking", new Map([["shipping", []]])]]))).toEqual([]);
  });

  it("leaves building dependencies to the composition root: domain modules import no process singleton", () => {
    expect(singletonUsers()).toEqual(SINGLETON_USERS_NOT_YET_MOVED);
    expect(singletonUsers()).not.toContain("fulfillment/write-back.server.ts");
  });

  it("has no cycle between capability folders", () => {
    const graph = folderGraph();
    expect(graph.get("booking")?.has("shipping")).toBe(true);
    expect(cycles(graph).map((component) => describeCycle(graph, component))).toEqual([]);
  });
});

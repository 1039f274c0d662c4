import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * The app's capability folders (app/<folder>/) and its top-level modules import each other in one direction
 * only (docs/decisions/036): no folder reaches back into a folder that depends on it. The composition root is
 * exempt, because building everything is its job: the routes, start-up, contextFor (with the process's queue and
 * logger), the request helper, and the process's two clients made from its configuration: the database client
 * (db/db.server.ts) and the shopifyApp() instance. The job catalog and queue (job-queue.server.ts) are not: they
 * take their services from the root, and domain modules send jobs through their context (docs/decisions/026).
 * And no module of app/, the composition root's included, is part of an import cycle.
 *
 * Outside it, domain functions that do I/O (async, or declared to return a Promise) take what they need as the
 * one Context (docs/decisions/037), not as a database, a shop, a Shopify admin and a time passed apart; only the
 * gateways' own modules take a database or a Shopify admin. The signature scan below reads each exported
 * function's signature with the TypeScript parser.
 */

const APP = dirname(fileURLToPath(import.meta.url));

const COMPOSITION_ROOT = [
  /^routes\//,
  /^startup\.server\.ts$/,
  /^entry\.server\.tsx$/,
  /^root\.tsx$/,
  /^request-context\.server\.ts$/,
  /^context\.server\.ts$/,
  /^shopify\.server\.ts$/,
  /^db\/db\.server\.ts$/,
];

/**
 * Modules outside the composition root that still reach for the process's database or Shopify app themselves
 * (docs/decisions/036). None does: job handlers take the queue's services, and webhook routes verify the
 * request in the routes' helper (request-context.server.ts) before the domain takes the shop's context.
 */
const SINGLETON_USERS_NOT_YET_MOVED: readonly string[] = [];

/** The process's singletons: its database client, its shopifyApp() instance and its logger. */
const SINGLETONS = ["db/db.server", "shopify.server", "log.server"];

/**
 * The gateways' own modules: what a context opens, and what builds one from its parts, so they take a database
 * or a Shopify admin by design and the context scan below leaves them out. Each entry says why; an entry whose
 * module is gone, or no longer exports a function the scan would flag, fails the test until it goes.
 */
const GATEWAY_MODULES: ReadonlyArray<{ module: string; why: string }> = [
  {
    module: "shopify/gateway.server.ts",
    why: "the Shopify Admin API gateway: adminQuery runs one document on the ShopAdmin that a context's shopify() opens",
  },
  {
    module: "shipping/client.server.ts",
    why: "the Shipping API clients: shippingClientFor opens the shop's sealed account from the database, as a context's shipping() does",
  },
];

type Graph = Map<string, Map<string, string[]>>;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "types" ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test(-d)?\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** app/batches/x.ts → "batches"; a top-level module is its own node: app/config.server.ts → "config.server.ts". */
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

/** The modules an app module imports (relative imports inside app/, dynamic ones too), by path from app/. */
function importsOf(file: string): string[] {
  const known = new Set(sourceFiles(APP));
  return ts
    .preProcessFile(readFileSync(file, "utf8"), true, true)
    .importedFiles.filter(({ fileName }) => fileName.startsWith("."))
    .map(({ fileName }) => resolve(dirname(file), fileName.replace(/\.js$/, "")))
    .flatMap((target) => [target, `${target}.ts`, `${target}.tsx`, join(target, "index.ts")].filter((candidate) => known.has(candidate)).slice(0, 1))
    .map((target) => relative(APP, target).split(sep).join("/"));
}

/** Which module of app/ imports which, every module (the composition root's too), with the import that makes each edge. */
export function moduleGraph(): Graph {
  const graph: Graph = new Map();
  for (const file of sourceFiles(APP)) {
    const from = relative(APP, file).split(sep).join("/");
    const edges = new Map<string, string[]>();
    for (const to of importsOf(file)) edges.set(to, [`${from} → ${to}`]);
    graph.set(from, edges);
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

/** A parameter's declared type names the one context (Context, ShippingContext, or a Pick of either). */
function isContextType(type: ts.TypeNode | undefined, source: ts.SourceFile): boolean {
  return type !== undefined && /^(Pick<\s*)?(Shipping)?Context\b/.test(type.getText(source));
}

/** Type aliases of the database client: `type Db = Pick<PrismaClient, …>` and the like, by name. */
function databaseAliases(sources: readonly ts.SourceFile[]): Set<string> {
  const names = new Set<string>();
  for (const source of sources)
    for (const statement of source.statements)
      if (ts.isTypeAliasDeclaration(statement) && isDatabaseType(statement.type, source, new Set())) names.add(statement.name.text);
  return names;
}

function isDatabaseType(type: ts.TypeNode | undefined, source: ts.SourceFile, aliases: ReadonlySet<string>): boolean {
  if (type === undefined) return false;
  const text = type.getText(source);
  return /^PrismaClient$|^(Pick|Omit)<\s*PrismaClient\b/.test(text) || aliases.has(text);
}

/** Why one exported function's parameters are not the one context, or null when they are (or it takes neither). */
function apartDependencies(fn: ts.SignatureDeclaration, source: ts.SourceFile, aliases: ReadonlySet<string>): string | null {
  const reasons: string[] = [];
  const first = fn.parameters[0];
  if (first && isDatabaseType(first.type, source, aliases)) reasons.push(`its first parameter is a database (${first.type!.getText(source)})`);
  if (first?.type?.getText(source) === "ShopAdmin") reasons.push("its first parameter is a Shopify admin (ShopAdmin)");
  for (const parameter of fn.parameters) {
    if (isContextType(parameter.type, source)) continue;
    // A parameter by its name, the names it destructures (an options object such as `{ now = new Date() }`),
    // and the members of an options object declared in place (`options: { shop: string }`).
    const literal = parameter.type && ts.isTypeLiteralNode(parameter.type) ? parameter.type : undefined;
    const memberType = (name: string) => {
      const member = literal?.members.find((entry) => ts.isPropertySignature(entry) && entry.name.getText(source) === name);
      return member && ts.isPropertySignature(member) ? member.type : undefined;
    };
    const members = literal?.members.flatMap((member) => (member.name ? [member.name.getText(source)] : [])) ?? [];
    const named: Array<{ name: string; type: ts.TypeNode | undefined }> = ts.isIdentifier(parameter.name)
      ? [{ name: parameter.name.text, type: parameter.type }, ...members.map((name) => ({ name, type: memberType(name) }))]
      : ts.isObjectBindingPattern(parameter.name)
        ? parameter.name.elements.map((element) => {
            const name = (element.propertyName ?? element.name).getText(source);
            return { name, type: memberType(name) };
          })
        : [];
    for (const { name, type } of named) {
      if (name === "db" || name === "now") reasons.push(`it takes \`${name}\``);
      else if (name === "shop" && type?.kind === ts.SyntaxKind.StringKeyword) reasons.push("it takes `shop: string`");
    }
  }
  return reasons.length > 0 ? [...new Set(reasons)].join(", ") : null;
}

/**
 * Whether a function does I/O, by its signature: it is `async`, or its declared return type is a `Promise<…>`.
 * Only those are held to the one context; a pure function (a filter built from a query, a shop's country and
 * a date) takes plain values, `now` among them, and returns a value.
 */
function doesIO(fn: ts.SignatureDeclaration, source: ts.SourceFile): boolean {
  const isAsync = ts.canHaveModifiers(fn) && (ts.getModifiers(fn)?.some((modifier) => modifier.kind === ts.SyntaxKind.AsyncKeyword) ?? false);
  const returnsPromise = fn.type !== undefined && ts.isTypeReferenceNode(fn.type) && fn.type.typeName.getText(source) === "Promise";
  return isAsync || returnsPromise;
}

/**
 * The exported functions of `sources` that do I/O (declarations and exported const arrow or function
 * expressions, async or declared to return a Promise) and take their dependencies apart, by module path.
 */
export function functionsApartFromContext(sources: ReadonlyArray<{ path: string; text: string }>): Array<{ name: string; why: string }> {
  const parsed = sources.map(({ path, text }) => ({ path, source: ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true) }));
  const aliases = databaseAliases(parsed.map(({ source }) => source));
  const found = new Map<string, string>();
  for (const { path, source } of parsed) {
    for (const statement of source.statements) {
      const exported = ts.canHaveModifiers(statement) && ts.getModifiers(statement)?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword);
      if (!exported) continue;
      const functions: Array<{ name: string; fn: ts.SignatureDeclaration }> = [];
      if (ts.isFunctionDeclaration(statement)) functions.push({ name: statement.name?.text ?? "default", fn: statement });
      if (ts.isVariableStatement(statement))
        for (const declaration of statement.declarationList.declarations)
          if (
            ts.isIdentifier(declaration.name) &&
            declaration.initializer &&
            (ts.isArrowFunction(declaration.initializer) || ts.isFunctionExpression(declaration.initializer))
          )
            functions.push({ name: declaration.name.text, fn: declaration.initializer });
      for (const { name, fn } of functions) {
        if (!doesIO(fn, source)) continue;
        const why = apartDependencies(fn, source, aliases);
        if (why && !found.has(`${path}:${name}`)) found.set(`${path}:${name}`, why);
      }
    }
  }
  return [...found].map(([name, why]) => ({ name, why })).sort((a, b) => a.name.localeCompare(b.name));
}

/** The app's `*.server.ts` modules outside the composition root, by path, with their text. */
function serverModules(): Array<{ path: string; text: string }> {
  return sourceFiles(APP)
    .map((file) => ({ file, path: relative(APP, file).split(sep).join("/") }))
    .filter(({ path }) => path.endsWith(".server.ts") && !COMPOSITION_ROOT.some((pattern) => pattern.test(path)))
    .map(({ file, path }) => ({ path, text: readFileSync(file, "utf8") }));
}

/**
 * What the scan found that breaks the rule, in words, one line per problem: a function outside the gateway
 * modules that takes its dependencies apart, and a gateway module listed without need (gone from `modules`,
 * or exporting no such function).
 */
function contextProblems(found: ReadonlyArray<{ name: string; why: string }>, gateways: readonly string[], modules: readonly string[]): string[] {
  const inGateway = (name: string) => gateways.some((module) => name.startsWith(`${module}:`));
  const apart = found
    .filter(({ name }) => !inGateway(name))
    .map(({ name, why }) => `${name} takes its dependencies apart (${why}): take \`ctx: Context\` (or a Pick of it) first and read time from ctx.now()`);
  const unneeded = gateways.flatMap((module) =>
    !modules.includes(module)
      ? [`${module} is listed as a gateway module but is gone: drop its entry`]
      : found.some(({ name }) => name.startsWith(`${module}:`))
        ? []
        : [`${module} is listed as a gateway module but takes nothing apart: drop its entry`],
  );
  return [...apart, ...unneeded];
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

/**
 * Results whose failure a caller must handle have one shape, `Outcome<T, F>` from app/outcome.ts (docs/decisions/038).
 * Every exported type alias or interface of app/ whose name ends in `Outcome` or `Result` is declared as that type,
 * except these states and reports of bulk work: progress the work records per item as it goes, which no caller
 * handles as a refusal. Each entry says why it is one; an entry whose type is gone or has moved onto `Outcome`
 * fails the test until it goes.
 */
const PROGRESS_STATES: ReadonlyArray<{ type: string; why: string }> = [
  { type: "booking/batch-results.server.ts QuoteOutcome", why: "one quote's booking in Batch Book's answer or Get Batch's read-back, recorded per order" },
  {
    type: "booking/batch-results.server.ts ReconcileOutcome",
    why: "what reading a BOOKING batch back found (booked, still open, cancelled, unconfirmed), which the batch job records",
  },
  {
    type: "booking/creation.server.ts CreateBatchesResult",
    why: "the report of creating batches: the batches recorded, each order left out with why, each part the service did not take",
  },
];

/** Where `file` imports app/outcome.ts's `Outcome`: the names it goes by, and the namespaces that hold it. */
function outcomeBindings(source: ts.SourceFile, file: string): { names: Set<string>; namespaces: Set<string> } {
  const names = new Set<string>();
  const namespaces = new Set<string>();
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    const specifier = statement.moduleSpecifier.text;
    if (!specifier.startsWith(".") || resolve(dirname(file), specifier.replace(/\.(js|ts)$/, "")) !== join(APP, "outcome")) continue;
    const bindings = statement.importClause?.namedBindings;
    if (bindings && ts.isNamespaceImport(bindings)) namespaces.add(bindings.name.text);
    if (bindings && ts.isNamedImports(bindings))
      for (const element of bindings.elements) if ((element.propertyName ?? element.name).text === "Outcome") names.add(element.name.text);
  }
  return { names, namespaces };
}

/** `type X = Outcome<…>` with `Outcome` bound to app/outcome.ts's (imported as it is, renamed, or through a namespace). */
function declaredThroughOutcome(declaration: ts.TypeAliasDeclaration | ts.InterfaceDeclaration, bindings: ReturnType<typeof outcomeBindings>): boolean {
  if (!ts.isTypeAliasDeclaration(declaration) || !ts.isTypeReferenceNode(declaration.type)) return false;
  const name = declaration.type.typeName;
  if (ts.isIdentifier(name)) return bindings.names.has(name.text);
  return ts.isIdentifier(name.left) && bindings.namespaces.has(name.left.text) && name.right.text === "Outcome";
}

/** Exported type aliases and interfaces named …Outcome or …Result in these modules, each "module Type", and whether it is an Outcome. */
function resultTypes(modules: ReadonlyArray<{ file: string; text: string }>): Array<{ type: string; outcome: boolean }> {
  return modules.flatMap(({ file, text }) => {
    const path = relative(APP, file).split(sep).join("/");
    if (path === "outcome.ts") return [];
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
    const bindings = outcomeBindings(source, file);
    // Exported where declared, or later by `export { Name }` / `export type { Name }`.
    const exportedLater = new Set(
      source.statements.flatMap((statement) =>
        ts.isExportDeclaration(statement) && !statement.moduleSpecifier && statement.exportClause && ts.isNamedExports(statement.exportClause)
          ? statement.exportClause.elements.map((element) => (element.propertyName ?? element.name).text)
          : [],
      ),
    );
    return source.statements.flatMap((statement) => {
      if (!ts.isTypeAliasDeclaration(statement) && !ts.isInterfaceDeclaration(statement)) return [];
      const name = statement.name.text;
      const exported = statement.modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword) || exportedLater.has(name);
      if (!exported || !/(Outcome|Result)$/.test(name)) return [];
      return [{ type: `${path} ${name}`, outcome: declaredThroughOutcome(statement, bindings) }];
    });
  });
}

/** Results of app/ not declared as `Outcome<…>` and not listed as progress states, and listed entries that are no longer either. */
function outcomeStyleViolations(modules: ReadonlyArray<{ file: string; text: string }>, listed: readonly string[]): string[] {
  const found = resultTypes(modules);
  const unshaped = found
    .filter(({ type, outcome }) => !outcome && !listed.includes(type))
    .map(({ type }) => `${type}: declare it as Outcome<…> (app/outcome.ts), or list it as a progress state`);
  const stale = listed
    .filter((type) => !found.some((entry) => entry.type === type && !entry.outcome))
    .map((type) => `${type}: listed as a progress state, but it is gone or an Outcome now; drop the entry`);
  return [...unshaped, ...stale];
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

  it("has no import cycle between modules, the composition root's included", () => {
    const graph = moduleGraph();
    expect(graph.get("context.server.ts")?.has("job-queue.server.ts")).toBe(true);
    expect(cycles(graph).map((component) => describeCycle(graph, component))).toEqual([]);
  });

  it("has no cycle between capability folders", () => {
    const graph = folderGraph();
    expect(graph.get("booking")?.has("shipping")).toBe(true);
    expect(cycles(graph).map((component) => describeCycle(graph, component))).toEqual([]);
  });
});

describe("the one context", () => {
  it("finds an exported function that does I/O and takes its dependencies apart, naming its module and function", () => {
    const sources = [
      { path: "settings/types.server.ts", text: `import type { PrismaClient } from "@prisma/client";\nexport type Db = Pick<PrismaClient, "shipment">;` },
      {
        path: "quoting/example.server.ts",
        text: [
          `import type { Db } from "../settings/types.server";`,
          `export async function byAlias(db: Db, runId: string) {}`,
          `export const arrow = async (client: PrismaClient, id: string) => {};`,
          // Not async, but declared to return a Promise: it does I/O.
          `export function withShop(id: string, shop: string): Promise<void> { return jobs().send(job, { id, shop }); }`,
          `export async function withOptions(deps: Deps, options: { shop: string; limit?: number }) {}`,
          `export async function withClock(id: string, { now = new Date() }: { now?: Date } = {}) {}`,
          `export async function fromShopify(admin: ShopAdmin, id: string) {}`,
          `export async function onContext(ctx: Context, id: string) {}`,
          `export async function onPick({ db, shop }: Pick<Context, "db" | "shop">, id: string) {}`,
          `export function pure(quotedAt: Date, shop: { name: string }) {}`,
          // Pure: plain values in, a plain object out, however its parameters are named.
          `export function filters(query: string, shop: string, now: Date): { query: string; since: Date } { return { query, since: now }; }`,
          `async function notExported(db: Db) {}`,
        ].join("\n"),
      },
      { path: "shipping/gateway.server.ts", text: `export async function openGateway(db: PrismaClient, shop: string): Promise<Client> {}` },
    ];
    const found = functionsApartFromContext(sources);
    expect(found.map(({ name }) => name)).toEqual([
      "quoting/example.server.ts:arrow",
      "quoting/example.server.ts:byAlias",
      "quoting/example.server.ts:fromShopify",
      "quoting/example.server.ts:withClock",
      "quoting/example.server.ts:withOptions",
      "quoting/example.server.ts:withShop",
      "shipping/gateway.server.ts:openGateway",
    ]);
    const modules = sources.map(({ path }) => path);
    expect(contextProblems(found, ["shipping/gateway.server.ts", "settings/types.server.ts", "shipping/gone.server.ts"], modules)).toEqual([
      "quoting/example.server.ts:arrow takes its dependencies apart (its first parameter is a database (PrismaClient)): take `ctx: Context` (or a Pick of it) first and read time from ctx.now()",
      "quoting/example.server.ts:byAlias takes its dependencies apart (its first parameter is a database (Db), it takes `db`): take `ctx: Context` (or a Pick of it) first and read time from ctx.now()",
      "quoting/example.server.ts:fromShopify takes its dependencies apart (its first parameter is a Shopify admin (ShopAdmin)): take `ctx: Context` (or a Pick of it) first and read time from ctx.now()",
      "quoting/example.server.ts:withClock takes its dependencies apart (it takes `now`): take `ctx: Context` (or a Pick of it) first and read time from ctx.now()",
      "quoting/example.server.ts:withOptions takes its dependencies apart (it takes `shop: string`): take `ctx: Context` (or a Pick of it) first and read time from ctx.now()",
      "quoting/example.server.ts:withShop takes its dependencies apart (it takes `shop: string`): take `ctx: Context` (or a Pick of it) first and read time from ctx.now()",
      "settings/types.server.ts is listed as a gateway module but takes nothing apart: drop its entry",
      "shipping/gone.server.ts is listed as a gateway module but is gone: drop its entry",
    ]);
  });

  it("domain functions that do I/O take the one context; only the listed gateway modules take a database or a Shopify admin", () => {
    const modules = serverModules();
    const found = functionsApartFromContext(modules);
    expect(
      contextProblems(
        found,
        GATEWAY_MODULES.map((entry) => entry.module),
        modules.map(({ path }) => path),
      ),
    ).toEqual([]);
  });
});

describe("results with failures the caller handles", () => {
  const at = (path: string) => join(APP, ...path.split("/"));

  it("finds a result type not declared as Outcome<…>, naming module and type, and a listed state that no longer needs its entry", () => {
    const modules = [
      { file: at("booking/a.server.ts"), text: `export type BookResult = { ok: true; id: string } | { ok: false; error: string };` },
      { file: at("booking/b.ts"), text: `import type { Outcome } from "../outcome";\nexport type SaveOutcome = Outcome<{ id: string }>;` },
      { file: at("quoting/c.ts"), text: `import type { Outcome } from "./outcome";\nexport type PickOutcome = Outcome<{ id: string }>;` },
      { file: at("routes/d.tsx"), text: `import type { Outcome as Shape } from "../outcome";\nexport type ActionResult = Shape<{ message: string }>;` },
      { file: at("orders/e.ts"), text: `import * as outcome from "../outcome";\nexport type MapResult = outcome.Outcome<{ n: number }>;` },
      { file: at("orders/f.ts"), text: `export interface SyncResult { ok: boolean }\ninterface LocalResult { ok: boolean }\ntype Hidden = { ok: boolean };` },
      { file: at("orders/g.ts"), text: `type TallyOutcome = { done: number };\nexport type { TallyOutcome };` },
      { file: at("orders/h.ts"), text: `import type { Outcome } from "../outcome";\nexport type WrappedResult = Outcome<{ n: number }> & { extra: string };` },
    ];
    expect(outcomeStyleViolations(modules, ["orders/g.ts TallyOutcome", "booking/b.ts SaveOutcome", "booking/z.ts GoneOutcome"])).toEqual([
      "booking/a.server.ts BookResult: declare it as Outcome<…> (app/outcome.ts), or list it as a progress state",
      // Outcome from a module other than app/outcome.ts is not the one shape.
      "quoting/c.ts PickOutcome: declare it as Outcome<…> (app/outcome.ts), or list it as a progress state",
      "orders/f.ts SyncResult: declare it as Outcome<…> (app/outcome.ts), or list it as a progress state",
      "orders/h.ts WrappedResult: declare it as Outcome<…> (app/outcome.ts), or list it as a progress state",
      "booking/b.ts SaveOutcome: listed as a progress state, but it is gone or an Outcome now; drop the entry",
      "booking/z.ts GoneOutcome: listed as a progress state, but it is gone or an Outcome now; drop the entry",
    ]);
  });

  it("declares every exported …Outcome and …Result type of app/ as Outcome<…>, but the listed progress states of bulk work", () => {
    const modules = sourceFiles(APP).map((file) => ({ file, text: readFileSync(file, "utf8") }));
    expect(resultTypes(modules).filter(({ outcome }) => outcome).length).toBeGreaterThan(10);
    expect(
      outcomeStyleViolations(
        modules,
        PROGRESS_STATES.map((entry) => entry.type),
      ),
    ).toEqual([]);
  });
});

/** The most lines a module under app/routes/ may have (docs/decisions/027): a route is an adapter, its page's parts live beside it. */
const ROUTE_MODULE_MAX_LINES = 250;

/** Modules under app/routes/ (route files, route folders' server modules and components) longer than `max` lines, with their length. */
export function longRouteModules(modules: ReadonlyArray<{ path: string; text: string }>, max = ROUTE_MODULE_MAX_LINES): string[] {
  return modules
    .map(({ path, text }) => ({ path, lines: text.split("\n").length - (text.endsWith("\n") ? 1 : 0) }))
    .filter(({ lines }) => lines > max)
    .map(({ path, lines }) => `${path}: ${lines} lines; move its page's parts into the route's folder (components/, a server module per intent)`);
}

describe("routes that are adapters", () => {
  it("finds a route module over the limit, naming it and its length", () => {
    const line = "x\n";
    expect(
      longRouteModules([
        { path: "routes/app.a.tsx", text: line.repeat(250) },
        { path: "routes/app.b/route.tsx", text: line.repeat(251) },
      ]),
    ).toEqual(["routes/app.b/route.tsx: 251 lines; move its page's parts into the route's folder (components/, a server module per intent)"]);
  });

  it(`keeps every module under app/routes/ to ${ROUTE_MODULE_MAX_LINES} lines`, () => {
    const modules = sourceFiles(join(APP, "routes")).map((file) => ({ path: relative(APP, file).split(sep).join("/"), text: readFileSync(file, "utf8") }));
    expect(modules.length).toBeGreaterThan(20);
    expect(longRouteModules(modules)).toEqual([]);
  });
});

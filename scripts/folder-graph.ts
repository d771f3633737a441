// The server's folders as a graph (issue 29): every module of src/server collapsed to its folder, the folders'
// layers, the loops between folders and the imports that go up a layer. Pure: scripts/check-folder-graph.ts feeds it
// dependency-cruiser's modules and fails `npm run lint` on what it finds; folder-graph.test.ts drives it on fixtures.

/** What the check needs of a dependency-cruiser module. */
export type CruisedModule = {
  source: string;
  dependencies: { resolved: string; dependencyTypes: string[] }[];
};

/** The kinds of src/server/features/ folders, as src/server/features/layers.json lists them. */
export type FeatureLayers = { channels: string[]; domains: string[] };

/**
 * Layers from the bottom up. A module may import its own layer or one below it, never one above; folders of one
 * layer may import each other as long as no loop forms; a channel never imports another channel.
 * - base: lib/ (pure helpers), config.ts and its parts in config/
 * - infrastructure: db/, adapters/ (outside systems; they know no feature)
 * - frame: http/, jobs/, observability/ (the request and job machinery features stand on, and what measures it)
 * - shared: features/shared/<name>/ (audit, settings, inbound webhooks: used by domains, knowing none)
 * - domain: features/<domain>/ (packages, licenses, sales, billing, ...)
 * - channel: features/<channel>/ (API v1, the portal, the admin and developer pages: parse, call, present)
 * - root: app.ts, main.ts, context.ts, ... (the composition root, which wires everything)
 */
export const LAYERS = ['base', 'infrastructure', 'frame', 'shared', 'domain', 'channel', 'root'] as const;
export type Layer = (typeof LAYERS)[number];

const SERVER = 'src/server/';
const TEST_FILE = /\.test\.tsx?$/;
/** Every feature receives the context built by the composition root; importing its type is not a dependency on the root. */
const INJECTED_CONTEXT = 'src/server/context.ts';

/** The folder a module belongs to, or null when it is outside src/server (contract, packages) or not code. */
export function folderOf(path: string): string | null {
  if (!path.startsWith(SERVER) || !/\.(ts|tsx|mts|js|mjs)$/.test(path)) return null;
  const parts = path.slice(SERVER.length).split('/');
  if (parts.length === 1) return parts[0]!;
  if (parts[0] === 'features') {
    if (parts.length === 2) return null;
    if (parts[1] === 'shared' && parts.length > 3) return `features/shared/${parts[2]}`;
    return `features/${parts[1]}`;
  }
  return parts[0]!;
}

/** The layer of a folder, or null for a feature folder that layers.json does not list. */
export function layerOf(folder: string, layers: FeatureLayers): Layer | null {
  if (folder.startsWith('features/shared/')) return 'shared';
  if (folder.startsWith('features/')) {
    const name = folder.slice('features/'.length);
    if (layers.channels.includes(name)) return 'channel';
    if (layers.domains.includes(name)) return 'domain';
    return null;
  }
  if (folder === 'lib' || folder === 'config.ts' || folder === 'config' || folder === 'env-file.ts') return 'base';
  if (folder === 'db' || folder === 'adapters') return 'infrastructure';
  if (folder === 'http' || folder === 'jobs' || folder === 'observability') return 'frame';
  return 'root';
}

/** One import line between two folders. */
export type FolderImport = { from: string; to: string; fromFolder: string; toFolder: string; typeOnly: boolean };

/**
 * The imports between different folders. Tests are left out: a test may reach any module it exercises (as in
 * .dependency-cruiser.cjs). So is a type-only import of the injected context.
 */
export function folderImports(modules: CruisedModule[]): FolderImport[] {
  const imports: FolderImport[] = [];
  for (const module of modules) {
    const fromFolder = folderOf(module.source);
    if (!fromFolder || TEST_FILE.test(module.source)) continue;
    for (const dependency of module.dependencies) {
      const toFolder = folderOf(dependency.resolved);
      if (!toFolder || toFolder === fromFolder || TEST_FILE.test(dependency.resolved)) continue;
      const typeOnly = dependency.dependencyTypes.includes('type-only');
      if (dependency.resolved === INJECTED_CONTEXT && typeOnly) continue;
      imports.push({ from: module.source, to: dependency.resolved, fromFolder, toFolder, typeOnly });
    }
  }
  return imports;
}

/**
 * The loops of a directed graph: its strongly connected components of two or more nodes (Tarjan), each sorted, in
 * a stable order. A graph without any is a DAG.
 */
export function findLoops(edges: ReadonlyArray<readonly [string, string]>): string[][] {
  const next = new Map<string, string[]>();
  for (const [from, to] of edges) {
    if (!next.has(from)) next.set(from, []);
    if (!next.has(to)) next.set(to, []);
    if (from !== to) next.get(from)!.push(to);
  }
  const index = new Map<string, number>();
  const lowLink = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const loops: string[][] = [];
  let counter = 0;
  // Iterative, so that a long chain of folders cannot overflow the call stack.
  for (const start of [...next.keys()].sort()) {
    if (index.has(start)) continue;
    const work: { node: string; nextChild: number }[] = [{ node: start, nextChild: 0 }];
    index.set(start, counter);
    lowLink.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const children = next.get(frame.node)!;
      if (frame.nextChild < children.length) {
        const child = children[frame.nextChild++]!;
        if (!index.has(child)) {
          index.set(child, counter);
          lowLink.set(child, counter++);
          stack.push(child);
          onStack.add(child);
          work.push({ node: child, nextChild: 0 });
        } else if (onStack.has(child)) {
          lowLink.set(frame.node, Math.min(lowLink.get(frame.node)!, index.get(child)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) lowLink.set(parent.node, Math.min(lowLink.get(parent.node)!, lowLink.get(frame.node)!));
      if (lowLink.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        if (component.length > 1) loops.push(component.sort());
      }
    }
  }
  return loops.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

export type FolderLoop = { folders: string[]; imports: FolderImport[] };
export type UpwardImport = FolderImport & { fromLayer: Layer; toLayer: Layer };

export type FolderGraphReport = {
  loops: FolderLoop[];
  upward: UpwardImport[];
  /** Feature folders that layers.json does not list, so that their place is unknown. */
  unlisted: string[];
};

export function checkFolderGraph(modules: CruisedModule[], layers: FeatureLayers): FolderGraphReport {
  const imports = folderImports(modules);
  const loops = findLoops(imports.map((line) => [line.fromFolder, line.toFolder] as const)).map((folders) => {
    const members = new Set(folders);
    return { folders, imports: imports.filter((line) => members.has(line.fromFolder) && members.has(line.toFolder)) };
  });
  const unlisted = new Set<string>();
  const upward: UpwardImport[] = [];
  for (const line of imports) {
    const fromLayer = layerOf(line.fromFolder, layers);
    const toLayer = layerOf(line.toFolder, layers);
    if (!fromLayer) unlisted.add(line.fromFolder);
    if (!toLayer) unlisted.add(line.toFolder);
    if (!fromLayer || !toLayer) continue;
    const above = LAYERS.indexOf(toLayer) > LAYERS.indexOf(fromLayer);
    const acrossChannels = fromLayer === 'channel' && toLayer === 'channel';
    if (above || acrossChannels) upward.push({ ...line, fromLayer, toLayer });
  }
  for (const module of modules) {
    const folder = folderOf(module.source);
    if (folder && !layerOf(folder, layers)) unlisted.add(folder);
  }
  return { loops, upward, unlisted: [...unlisted].sort() };
}

/** The report as lines a person can act on; empty when the graph is clean. */
export function describeFolderGraph(report: FolderGraphReport): string[] {
  const lines: string[] = [];
  for (const loop of report.loops) {
    lines.push(`Folder loop: ${loop.folders.join(', ')}. Move the shared piece down; the imports closing it:`);
    for (const line of loop.imports) lines.push(`  ${line.from} -> ${line.to}${line.typeOnly ? ' (type)' : ''}`);
  }
  for (const line of report.upward) {
    lines.push(`Upward import (${line.fromLayer} -> ${line.toLayer}): ${line.from} -> ${line.to}`);
  }
  for (const folder of report.unlisted) {
    lines.push(
      `Unlisted folder: ${folder}. Say in src/server/features/layers.json whether it is a domain or a channel.`,
    );
  }
  return lines;
}

import { spawn } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CDPSession, Page } from '@playwright/test';
import { e2eServerEnv } from './serverEnv.js';

/**
 * What assistive technology gets, read from Chromium's own accessibility tree over CDP
 * (`Accessibility.getFullAXTree`), not from CSS classes or our own markup: the role, name and
 * description a screen reader announces, and the text inside live regions (docs/accessibility.md).
 */

interface RawValue {
  type: string;
  value?: unknown;
  /** For a reference (aria-activedescendant, aria-controls …): the nodes it points at. */
  relatedNodes?: Array<{ idref?: string; backendDOMNodeId: number }>;
}
interface RawNode {
  nodeId: string;
  ignored: boolean;
  role?: RawValue;
  name?: RawValue;
  description?: RawValue;
  properties?: Array<{ name: string; value: RawValue }>;
  childIds?: string[];
  parentId?: string;
  backendDOMNodeId?: number;
}

export interface AxNode {
  role: string;
  name: string;
  description: string;
  /** live, focused, disabled, setsize, posinset, activedescendant …: CDP's property values. */
  props: Record<string, unknown>;
  /** The text of the node's visible descendants (what a live region reads out). */
  text: string;
}

const sessions = new WeakMap<Page, CDPSession>();
async function cdp(page: Page): Promise<CDPSession> {
  let s = sessions.get(page);
  if (!s) {
    s = await page.context().newCDPSession(page);
    await s.send('Accessibility.enable');
    sessions.set(page, s);
  }
  return s;
}

/** Roles that are live regions by themselves (WAI-ARIA). */
const LIVE_ROLES: Record<string, string> = {
  status: 'polite',
  log: 'polite',
  alert: 'assertive',
  timer: 'off',
};

/** Every node of the page's accessibility tree, with its text (and whether it is a live region's root). */
export async function axTree(page: Page): Promise<Array<AxNode & { liveRoot?: string }>> {
  const { nodes } = (await (await cdp(page)).send('Accessibility.getFullAXTree')) as { nodes: RawNode[] };
  const byId = new Map(nodes.map((n) => [n.nodeId, n]));
  const textOf = (n: RawNode): string => {
    if (n.role?.value === 'StaticText') return String(n.name?.value ?? '');
    return (n.childIds ?? [])
      .map((id) => byId.get(id))
      .filter((c): c is RawNode => c !== undefined)
      .map(textOf)
      .filter(Boolean)
      .join(' ');
  };
  const props = (n: RawNode) =>
    Object.fromEntries(
      (n.properties ?? []).map((p) => [
        p.name,
        p.value.value ?? p.value.relatedNodes?.map((r) => r.idref ?? r.backendDOMNodeId),
      ]),
    );
  const liveOf = (n: RawNode): string | undefined => {
    const live = props(n).live;
    if (typeof live === 'string' && live !== 'off') return live;
    return LIVE_ROLES[String(n.role?.value ?? '')];
  };
  return nodes
    .filter((n) => !n.ignored)
    .map((n) => {
      const live = liveOf(n);
      const parent = n.parentId ? byId.get(n.parentId) : undefined;
      return {
        role: String(n.role?.value ?? ''),
        name: String(n.name?.value ?? ''),
        description: String(n.description?.value ?? ''),
        props: props(n),
        text: textOf(n),
        ...(live && !(parent && liveOf(parent)) ? { liveRoot: live } : {}),
      };
    });
}

/** The node that has focus (CDP's `focused` property; the document itself says so too). */
export async function focusedNode(page: Page): Promise<AxNode | undefined> {
  return (await axTree(page)).find((n) => n.props.focused === true && n.role !== 'RootWebArea');
}

/** Live regions (aria-live, role status / alert / log …) and the text each holds now. */
export async function liveRegions(page: Page): Promise<Array<{ role: string; live: string; text: string }>> {
  return (await axTree(page))
    .filter((n) => n.liveRoot !== undefined)
    .map((n) => ({ role: n.role, live: String(n.liveRoot), text: n.text }));
}

/** Nodes of a role (and a name matching `name`, when given). */
export async function axByRole(page: Page, role: string, name?: RegExp | string): Promise<AxNode[]> {
  return (await axTree(page)).filter(
    (n) =>
      n.role === role &&
      (name === undefined || (typeof name === 'string' ? n.name === name : name.test(n.name))),
  );
}

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * A second server for one spec (its own port and data folder, settings of its own such as a
 * 30-second NIA session), started like playwright.config.ts starts the main one. Returns its
 * origin and a stop function.
 */
export async function startOwnServer(
  port: number,
  env: Record<string, string>,
): Promise<{ origin: string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, ['e2e/start-server.mjs'], {
    cwd: repo,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, ...e2eServerEnv(port, resolve(repo, `e2e/.out/data-own-${port}`)), ...env },
  });
  const origin = `http://localhost:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server on port ${port} exited (${child.exitCode})`);
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ready) break;
    if (Date.now() > deadline) throw new Error(`the server on port ${port} did not get ready`);
    await new Promise((r) => setTimeout(r, 250));
  }
  const stop = () =>
    new Promise<void>((done) => {
      if (child.exitCode !== null) return done();
      child.once('exit', () => done());
      child.kill('SIGINT');
    });
  return { origin, stop };
}

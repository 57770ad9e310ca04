// Types of stall-bodies.mjs, for the server's TypeScript test that imports it.
export interface PostRoute {
  path: string;
  base: Record<string, unknown>;
}
export interface HostileBody {
  name: string;
  text: string;
}
export const POST_ROUTES: PostRoute[];
export function hostileBodies(route: PostRoute, fit?: number): HostileBody[];

import { type ComponentType, lazy } from 'react';

/**
 * A page loaded on demand (its own chunk), which can also be loaded before the first render
 * (issue 29): `main.tsx` starts loading the page of the address the browser opened while the
 * texts load, and renders once both are there. The first paint is then the page itself, not the
 * shell with a spinner followed by the page: one render and one layout instead of two, and no
 * chunk evaluated and rendered after the first paint, where every long task counts as blocking
 * time. Moving between pages in the app still loads the next page on demand (React's `lazy`,
 * inside the route's Suspense with its spinner).
 */
export interface LazyPage<P> {
  (props: P): React.ReactNode;
  /** Loads the page's chunk (once; later calls share the first load). */
  preload: () => Promise<unknown>;
}

export function lazyPage<P extends object>(load: () => Promise<{ default: ComponentType<P> }>): LazyPage<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<{ default: ComponentType<P> }> | undefined;
  const preload = () => {
    loading ??= load().then(
      (module) => {
        loaded = module.default;
        return module;
      },
      (err: unknown) => {
        loading = undefined; // a failed load (a lost connection) is tried again on the next use
        throw err;
      },
    );
    return loading;
  };
  const OnDemand = lazy(preload);
  // biome-ignore lint/correctness/noComponentHookFactories: made once per page at module level (App.tsx), as React's lazy()
  const Page = (props: P) => {
    const Loaded = loaded;
    return Loaded ? <Loaded {...props} /> : <OnDemand {...props} />;
  };
  Page.preload = preload;
  return Page;
}

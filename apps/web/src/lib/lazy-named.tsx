import { lazy, Suspense, useEffect, useState, type ComponentType, type ReactNode } from 'react';
import { spreadPreloads } from './spread-preloads';

/** A lazily loaded component that can also be fetched ahead of its first render. */
export type Preloadable<P> = ComponentType<P> & { preload: () => Promise<unknown> };

/**
 * A module's named export, loaded when first drawn: screens, dialogs and folded forms are chunks
 * of their own, so a screen's first load carries only what it draws (docs/performance.md, Page
 * speed). `preload` fetches the chunk early; once it has arrived the component draws at once.
 *
 * Until then `fallback` stands in, drawn by this component rather than by a Suspense boundary:
 * React holds back a first render that suspends, so a suspending screen kept the whole layout
 * (menu, top bar) off the screen until the screen's chunk had arrived. A chunk that fails to
 * load is handed to `React.lazy`, which tries again and throws its error as before.
 *
 * `module`, the path under src/ that `load` imports (without its extension), lets the chunks
 * be named to the browser a few per task first (lib/spread-preloads.ts): worth it for a module
 * that needs many chunks, such as a screen.
 */
export function lazyNamed<P extends object, K extends string>(
  load: () => Promise<Record<K, ComponentType<P>>>,
  name: K,
  fallback: ReactNode = null,
  module?: string,
): Preloadable<P> {
  let loaded: ComponentType<P> | undefined;
  const preload = async (): Promise<ComponentType<P>> => {
    if (module && !loaded) await spreadPreloads(module);
    const component: ComponentType<P> = (await load())[name];
    loaded = component;
    return component;
  };
  const Lazy: ComponentType<P> = lazy(async () => ({ default: await preload() }));

  function Preloaded(props: P) {
    // True when this render already drew the component: setting it again is then a no-op, not
    // a second render of the whole subtree (for the route's components, the whole page) right
    // after the first (docs/performance.md, Page speed).
    const [, setArrived] = useState(() => loaded !== undefined);
    const [failed, setFailed] = useState(false);
    useEffect(() => {
      // The chunk may have arrived between this render and its effect (an earlier preload):
      // draw again, or the stand-in would stay for good.
      if (loaded) {
        setArrived(true);
        return;
      }
      let live = true;
      preload().then(
        () => live && setArrived(true),
        () => live && setFailed(true),
      );
      return () => {
        live = false;
      };
    }, []);
    const Component: ComponentType<P> | undefined = loaded;
    if (Component) return <Component {...props} />;
    if (!failed) return fallback;
    return (
      <Suspense fallback={fallback}>
        <Lazy {...props} />
      </Suspense>
    );
  }
  return Object.assign(Preloaded, { preload });
}

/** After the screen's load has settled, fetch these components' chunks while the page is idle. */
const IDLE_DELAY_MS = 2000;

export function usePreloadWhenIdle(components: readonly { preload: () => Promise<unknown> }[]) {
  useEffect(() => {
    const timer = setTimeout(() => {
      for (const c of components) void c.preload().catch(() => undefined);
    }, IDLE_DELAY_MS);
    return () => clearTimeout(timer);
    // The list is a module-level constant of each caller.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}

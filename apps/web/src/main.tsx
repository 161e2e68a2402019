import { StrictMode, startTransition } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import './styles/bootstrap.scss';
import './app/app.css';
import { App, preloadRoute } from './app/app';

// React's root registers its listeners for every event it handles as it is created (about 15 ms
// here, four times that on a phone): a task of its own, run while the route's chunks are still
// on their way, rather than a part of the task that starts the first render (docs/performance.md,
// Page speed).
const rootReady = new Promise<Root>((resolve) => {
  setTimeout(() => resolve(createRoot(document.getElementById('root')!)), 0);
});

// The route's chunk first, so the first render draws the page rather than a spinner; a failed
// fetch is left to the lazy component, which tries again (lib/lazy-named.tsx). Not a top-level
// await: the chunks import from this one, which must have finished running.
void Promise.all([rootReady, preloadRoute(window.location.pathname).catch(() => undefined)]).then(
  ([root]) => {
    // A transition renders in slices, yielding to the browser between them: no long task on a
    // slow phone (docs/performance.md, Page speed).
    startTransition(() =>
      root.render(
        <StrictMode>
          <App />
        </StrictMode>,
      ),
    );
  },
);

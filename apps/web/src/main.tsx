import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import './styles/bootstrap.scss';
import './app/app.css';
import { App, preloadRoute } from './app/app';

// The route's chunk first, so the first render draws the page rather than a spinner; a failed
// fetch is left to the lazy component, which tries again (lib/lazy-named.tsx). Not a top-level
// await: the chunks import from this one, which must have finished running.
void preloadRoute(window.location.pathname)
  .catch(() => undefined)
  .then(() => {
    const root = createRoot(document.getElementById('root')!);
    // A transition renders in slices, yielding to the browser between them: no long task on a
    // slow phone (docs/performance.md, Page speed).
    startTransition(() =>
      root.render(
        <StrictMode>
          <App />
        </StrictMode>,
      ),
    );
  });

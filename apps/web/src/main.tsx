import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './styles/bootstrap.scss';
import './app/app.css';
import { App } from './app/app';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

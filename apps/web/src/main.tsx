// Entry point: loads the texts of the chosen language, then mounts the console. Everything heavier than the providers is loaded per route.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { initI18n } from './i18n';
import './app/global.css';

const root = document.getElementById('root');
if (!root) throw new Error('Missing #root element');
// The language's texts first (French is its own chunk), then the first render.
void initI18n().finally(() =>
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);

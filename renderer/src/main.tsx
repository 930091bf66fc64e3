import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.js';
import './styles/app.css';
import './styles/case.css';

const container = document.getElementById('root');
if (!container) throw new Error('missing #root element');
createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

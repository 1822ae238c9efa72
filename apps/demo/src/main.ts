import './styles.css';
import { DemoApp } from './app.js';

new DemoApp().start().catch((error: unknown) => {
  document.body.dataset.status = 'error';
  const status = document.getElementById('status');
  if (status) status.textContent = `The demo could not start: ${error instanceof Error ? error.message : String(error)}`;
  console.error(error);
});

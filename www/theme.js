// Theme toggle (light/dark), remembered in localStorage when allowed.
import { $ } from './dom.js';

const themeBtn = $('#theme-toggle');
function effectiveTheme() {
  const t = document.documentElement.dataset.theme;
  if (t === 'light' || t === 'dark') return t;
  return matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}
function paintThemeButton() {
  const next = effectiveTheme() === 'dark' ? 'light' : 'dark';
  themeBtn.textContent = next === 'dark' ? '◐ Dark' : '◑ Light';
  themeBtn.setAttribute('aria-label', `Switch to ${next} theme`);
}
function setTheme(t) {
  document.documentElement.dataset.theme = t;
  try { localStorage.setItem('lians-dashboard-theme', t); } catch { /* storage may be off */ }
  paintThemeButton();
}
try {
  const saved = localStorage.getItem('lians-dashboard-theme');
  if (saved === 'light' || saved === 'dark') document.documentElement.dataset.theme = saved;
} catch { /* ignore */ }
themeBtn.addEventListener('click', () => setTheme(effectiveTheme() === 'dark' ? 'light' : 'dark'));
matchMedia('(prefers-color-scheme: dark)').addEventListener('change', paintThemeButton);
paintThemeButton();


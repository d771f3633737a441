// Applies the stored theme before React renders, so a dark page never flashes light.
(() => {
  try {
    const stored = localStorage.getItem('theme');
    const prefersDark = window.matchMedia('(prefers-color-scheme: dark)').matches;
    const theme = stored === 'light' || stored === 'dark' ? stored : prefersDark ? 'dark' : 'light';
    if (theme === 'dark') document.documentElement.classList.add('dark');
  } catch {
    // Storage may be blocked; the light theme is a fine fallback.
  }
})();

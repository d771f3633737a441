import { Moon, Sun } from 'lucide-react';
import { useTheme } from '../lib/theme';
import { Button } from './ui/button';

/** Switches light/dark; the choice is stored under `theme` and survives reloads. */
export function ThemeToggle({ className }: { className?: string }) {
  const { theme, toggleTheme } = useTheme();
  const next = theme === 'dark' ? 'light' : 'dark';
  return (
    <Button
      variant="ghost"
      size="icon"
      className={className}
      onClick={toggleTheme}
      aria-label="Toggle theme"
      title={`Switch to ${next} mode`}
      data-testid="theme-toggle"
    >
      {theme === 'dark' ? <Sun /> : <Moon />}
    </Button>
  );
}

import { Moon, Sun } from 'lucide-react';
import { useTheme } from '../lib/theme';
import { Button } from './ui/button';
import { Tooltip } from './ui/tooltip';

/** Switches light/dark; the choice is stored under `theme` and survives reloads. */
export function ThemeToggle({ className }: { className?: string }) {
  const { theme, toggleTheme } = useTheme();
  const next = theme === 'dark' ? 'light' : 'dark';
  return (
    <Tooltip content={`Switch to ${next} mode`}>
      <Button
        variant="ghost"
        size="icon"
        className={className}
        onClick={toggleTheme}
        aria-label="Toggle theme"
        data-testid="theme-toggle"
      >
        {theme === 'dark' ? <Sun /> : <Moon />}
      </Button>
    </Tooltip>
  );
}

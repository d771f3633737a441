import { cn } from '../lib/cn';
import { CopyButton } from './copy-button';
import { toast } from './ui/use-toast';

/**
 * A shell command in a code block with a copy button that confirms with "Copied!" for 2 s and a Copied! toast.
 * On a phone the button sits below the command, so the command keeps the whole width; the command wraps only at
 * its spaces (a single word longer than the line breaks where it must) and never mid-word to fill a line.
 */
export function CopyCommand({ command, className }: { command: string; className?: string }) {
  return (
    <div
      data-testid="copy-command"
      className={cn(
        'flex flex-col overflow-hidden rounded-md border bg-muted/60 sm:flex-row sm:items-stretch',
        className,
      )}
    >
      <pre className="min-w-0 flex-1 px-3 py-3 font-mono text-xs leading-6 whitespace-pre-wrap [overflow-wrap:anywhere] sm:px-4 sm:text-sm">
        <code data-testid="command-text">
          <span className="select-none text-muted-foreground">$ </span>
          {command}
        </code>
      </pre>
      <div className="flex shrink-0 items-center justify-end border-t p-1 sm:border-t-0 sm:border-l sm:px-2 sm:py-1.5">
        <CopyButton
          value={command}
          variant="ghost"
          failureMessage="Failed to copy command"
          onCopied={() => toast({ title: 'Copied!', description: 'Command copied to clipboard' })}
          className="w-[5.5rem]"
        />
      </div>
    </div>
  );
}

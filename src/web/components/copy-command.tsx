import { cn } from '../lib/cn';
import { CopyButton } from './copy-button';
import { toast } from './ui/use-toast';

/** A shell command in a code block with a copy button that confirms with "Copied!" for 2 s and a Copied! toast. */
export function CopyCommand({ command, className }: { command: string; className?: string }) {
  return (
    <div className={cn('flex items-stretch overflow-hidden rounded-md border bg-muted/60', className)}>
      <pre className="min-w-0 flex-1 px-3 py-3 font-mono text-xs leading-6 break-all whitespace-pre-wrap sm:overflow-x-auto sm:px-4 sm:text-sm sm:break-normal">
        <code>
          <span className="select-none text-muted-foreground">$ </span>
          {command}
        </code>
      </pre>
      <div className="flex shrink-0 items-start border-l p-1.5 sm:items-center sm:px-2">
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

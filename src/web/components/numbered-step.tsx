import { cn } from '../lib/cn';
import { CopyCommand } from './copy-command';

/** A step's number in a numbered guide, in a filled circle; `className` may size the circle. */
export function StepNumber({ number, className }: { number: number; className?: string }) {
  return (
    <span
      className={cn(
        'flex size-8 shrink-0 items-center justify-center rounded-full bg-primary text-sm font-semibold text-primary-foreground',
        className,
      )}
    >
      {number}
    </span>
  );
}

/** A step of Composer's three-step setup: its number beside its title and what it does, then its command to copy. */
export function CommandStep({
  number,
  title,
  description,
  command,
  heading: Heading,
}: {
  number: number;
  title: string;
  description: string;
  command: string;
  /** The title's heading level in the page's outline. */
  heading: 'h2' | 'h3';
}) {
  return (
    <>
      <div className="flex gap-4">
        <StepNumber number={number} />
        <div className="min-w-0 flex-1">
          <Heading className="font-semibold">{title}</Heading>
          <p className="mt-1 text-sm text-muted-foreground">{description}</p>
        </div>
      </div>
      <CopyCommand command={command} className="mt-3 sm:ml-12" />
    </>
  );
}

import { AlertTriangle, Home, RefreshCw } from 'lucide-react';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Button } from '../components/ui/button';

/** The generic error screen: Something went wrong, with Refresh Page and Go Home. */
export function ErrorScreen() {
  return (
    <div className="flex min-h-[60vh] items-center justify-center px-4 py-16" role="alert">
      <div className="max-w-md space-y-6 text-center">
        <div className="mx-auto flex size-14 items-center justify-center rounded-full bg-destructive/10 text-destructive">
          <AlertTriangle className="size-7" />
        </div>
        <div className="space-y-2">
          <h1 className="text-2xl font-bold tracking-tight">Something went wrong</h1>
          <p className="text-muted-foreground">
            An unexpected error occurred. Refresh the page to try again, or go back to the home page.
          </p>
        </div>
        <div className="flex flex-wrap justify-center gap-3">
          <Button onClick={() => window.location.reload()}>
            <RefreshCw />
            Refresh Page
          </Button>
          <Button variant="outline" onClick={() => window.location.assign('/')}>
            <Home />
            Go Home
          </Button>
        </div>
      </div>
    </div>
  );
}

export class ErrorBoundary extends Component<{ children: ReactNode }, { hasError: boolean }> {
  state = { hasError: false };

  static getDerivedStateFromError(): { hasError: boolean } {
    return { hasError: true };
  }

  componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('The page failed to render', error, info.componentStack);
  }

  render(): ReactNode {
    return this.state.hasError ? <ErrorScreen /> : this.props.children;
  }
}
